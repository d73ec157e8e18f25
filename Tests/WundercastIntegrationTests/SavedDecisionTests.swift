import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastServer

/// The saved authorization decision (`$STATE_DIRECTORY/authorization`): a missing file is no
/// decision; one that exists but cannot be read or parsed counts as `denied` — it may have held
/// one — is logged with its path and shown in `status`, until an `authorize` replaces it.
@Suite(.timeLimit(.minutes(2))) struct SavedDecisionTests {
    /// Damaged files (issue 14, M3): none of them may let the configured `always` through.
    static let damaged: [(name: String, bytes: [UInt8])] = [
        ("other case", Array("DENIED\n".utf8)),
        ("byte-order mark", [0xEF, 0xBB, 0xBF] + Array("denied\n".utf8)),
        ("NUL", Array("denied\0\n".utf8)),
        ("extra line", Array("denied\nalways\n".utf8)),
        ("truncated", Array("when-in-u".utf8)),
        ("empty", []),
        ("not UTF-8", [0xFF, 0xFE, 0x0A]),
    ]

    static func stateDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-state-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func whatAuthorizeWritesIsADecisionAndNothingElseIs() {
        for status in AuthorizationStatus.allCases {
            #expect(SavedDecision(bytes: Array((status.configName + "\n").utf8)) == .decided(status))
            #expect(SavedDecision(bytes: Array(status.configName.utf8)) == .decided(status))
        }
        for (name, bytes) in Self.damaged {
            guard case .unreadable(let reason) = SavedDecision(bytes: bytes) else {
                Issue.record("\(name): read as a decision")
                continue
            }
            #expect(!reason.isEmpty, "\(name)")
        }
    }

    @Test func aMissingFileIsNoDecisionAndADirectoryIsUnreadable() throws {
        let directory = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("authorization").path
        #expect(SavedDecision.read(nil) == .none)
        #expect(SavedDecision.read(path) == .none)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(SavedDecision.read(path) == .unreadable(reason: "Is a directory"))
        try FileManager.default.removeItem(atPath: path)
        try Data("denied\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(SavedDecision.read(path) == .decided(.denied))
        try Data(repeating: UInt8(ascii: "a"), count: 100).write(to: URL(fileURLWithPath: path))
        #expect(SavedDecision.read(path) == .unreadable(reason: "larger than 64 bytes"))
        // A dangling symbolic link exists: unreadable, not missing (the hostile pass of issue 14).
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/nonexistent/decision")
        #expect(SavedDecision.read(path) == .unreadable(reason: "a symbolic link to nothing"))
    }

    @Test(arguments: damaged.map(\.name))
    func aDamagedDecisionCountsAsDenied(_ name: String) async throws {
        let bytes = try #require(Self.damaged.first { $0.name == name }?.bytes)
        let directory = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("authorization").path
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let daemon = try await DaemonProcess(
            configuration: "[Location]\nAuthorization=always\nGPSD=127.0.0.1:1\n",
            environment: ["STATE_DIRECTORY": directory.path])
        #expect(try await daemon.now()["authorization"] as? String == "denied", "\(name)")
        #expect(daemon.log.contains("the saved authorization decision in \(file) cannot be read"), "\(daemon.log)")
        let status = try await daemon.ctl("status", "--json")
        let parsed = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8))
        let object = try #require(parsed as? [String: Any], "\(status.stdout)")
        #expect(object[path: "unreadableDecision.path"] as? String == file, "\(status.stdout)")
        #expect(object["authorization"] as? String == "denied")
        let text = try await daemon.ctl("status").stdout
        #expect(text.contains("saved decision \(file) cannot be read ("), "\(text)")
        #expect(await daemon.stop() == 0)
    }

    @Test func authorizeReplacesAnUnreadableDecision() async throws {
        let directory = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("authorization")
        try Data("DENIED\n".utf8).write(to: file)
        let daemon = try await DaemonProcess(
            configuration: "[Location]\nAuthorization=always\nGPSD=127.0.0.1:1\n",
            environment: ["STATE_DIRECTORY": directory.path])
        #expect(try await daemon.ctl("authorize", "when-in-use").stdout == "GPS authorization: when-in-use\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "when-in-use\n")
        let status = try await daemon.ctl("status", "--json").stdout
        #expect(!status.contains("unreadableDecision"), "\(status)")
        #expect(!(try await daemon.ctl("status").stdout.contains("saved decision")))
        #expect(await daemon.stop() == 0)
    }
}
