import Foundation
import Testing
import WundercastTestSupport

/// `systemd/wundercast.catalog` explains every `MessageID` (journalctl -x).
@Suite struct CatalogTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WundercastSystemdTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let catalog = root.appendingPathComponent("systemd/wundercast.catalog")

    /// The 32-hex-digit IDs in `text` matched by `pattern` (first capture group).
    static func ids(_ text: String, _ pattern: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func oneEntryPerMessageID() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/WundercastSupport/Logging/MessageID.swift"),
            encoding: .utf8)
        let text = try String(contentsOf: Self.catalog, encoding: .utf8)
        let messageIDs = try Self.ids(source, #"static let \w+ = "([0-9a-f]{32})""#)
        let entries = try Self.ids(text, #"^-- ([0-9a-f]{32})$"#)
        #expect(!messageIDs.isEmpty)
        #expect(entries.sorted() == messageIDs.sorted())

        for entry in text.components(separatedBy: "\n-- ").dropFirst() {
            let header = entry.components(separatedBy: "\n\n")[0]
            #expect(header.contains("\nSubject: "), "\(header)")
            #expect(header.contains("\nDefined-By: wundercast"), "\(header)")
            #expect(header.contains("\nDocumentation: "), "\(header)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/journalctl")))
    func journalctlCompilesIt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wundercast-catalog-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("usr/lib/systemd/catalog")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("var/lib/systemd/catalog"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.catalog, to: directory.appendingPathComponent("wundercast.catalog"))

        #expect(try await journalctl(["--root=\(root.path)", "--update-catalog"]).status == 0)
        let list = try await journalctl(["--root=\(root.path)", "--list-catalog"])
        #expect(list.status == 0)
        let lines = list.output.split(separator: "\n").filter { $0.contains(" wundercast: ") }
        let text = try String(contentsOf: Self.catalog, encoding: .utf8)
        #expect(lines.count == (try Self.ids(text, #"^-- ([0-9a-f]{32})$"#)).count)
    }

    private func journalctl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await runProcess("/bin/journalctl", ["--no-pager"] + arguments)
        return (result.status, result.stdout)
    }
}
