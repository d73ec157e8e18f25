import Foundation
import Testing
import WundercastCore
import WundercastSystemd

#if canImport(Glibc)
import Glibc
#endif

/// `JournalLogSink` through libsystemd's real `sd_journal_sendv`, which always writes to
/// `/run/systemd/journal/socket` (PITFALLS).
/// - No journald here (no systemd as PID 1): as root, the test binds its own datagram socket
///   at that path for the moment of the test, parses the native-protocol datagram, and
///   removes the socket and the directories it made.
/// - A running journald (its `stdout` socket beside it): the entry is read back with
///   `journalctl -o json`.
/// - Otherwise (not root, or someone else's stand-in socket): disabled.
@Suite struct JournalEndToEndTests {
    static let directory = "/run/systemd/journal"
    static let socketPath = directory + "/socket"

    enum Mode { case standInSocket, journald, unavailable }

    static var mode: Mode {
        if access(socketPath, F_OK) == 0 {
            return access(directory + "/stdout", F_OK) == 0 ? .journald : .unavailable
        }
        return getuid() == 0 ? .standInSocket : .unavailable
    }

    static let message = "Weather changed: 21.5 °C\nsecond line\tkept"

    /// Sends one entry carrying `token` in `WUNDERCAST_TEST_TOKEN`; its `condition` field is
    /// misnamed on purpose, so a debug note follows it.
    static func send(token: String) throws {
        try JournalLogSink(identifier: "wundercast-test").write(
            .notice, message, fields: [
                ("MESSAGE_ID", Array(MessageID.weatherChanged.utf8)),
                ("WUNDERCAST_TEMPERATURE", Array("21.5".utf8)),
                ("wundercast_condition", Array("Rain\nthen sun".utf8)),
                ("WUNDERCAST_TEST_TOKEN", Array(token.utf8)),
            ], file: "WundercastSystemdTests/JournalEndToEndTests.swift", line: 99)
    }

    /// Checks the fields of the sent entry, whatever way they were read back.
    static func check(_ fields: [String: [[UInt8]]]) {
        func value(_ name: String) -> String? {
            guard let values = fields[name] else { return nil }
            #expect(values.count == 1, "\(name) appears \(values.count) times")
            return values.first.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(value("MESSAGE") == message)
        #expect(value("PRIORITY") == "5")
        #expect(value("SYSLOG_IDENTIFIER") == "wundercast-test")
        #expect(value("CODE_FILE") == "WundercastSystemdTests/JournalEndToEndTests.swift")
        #expect(value("CODE_LINE") == "99")
        #expect(value("MESSAGE_ID") == MessageID.weatherChanged)
        #expect(value("WUNDERCAST_TEMPERATURE") == "21.5")
        #expect(value("WUNDERCAST_CONDITION") == "Rain\nthen sun")
        #expect(fields["wundercast_condition"] == nil)
    }

    @Test(.enabled(if: mode == .standInSocket, "needs root and no journald"))
    func nativeDatagramThroughStandInSocket() throws {
        var made: [String] = []
        for path in ["/run/systemd", Self.directory] where mkdir(path, 0o755) == 0 {
            made.append(path)
        }
        defer { for path in made.reversed() { rmdir(path) } }
        let socket = try DatagramSocket(path: Self.socketPath)
        defer { socket.close() }

        let token = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        try Self.send(token: token)
        let datagrams = socket.receiveAll()
        socket.close()

        // Other programs on the machine may log at the same moment: keep ours.
        let ours = datagrams.compactMap(parseNativeEntry).filter { fields in
            fields.contains { $0.0 == "WUNDERCAST_TEST_TOKEN" && $0.1 == Array(token.utf8) }
                || fields.contains { $0.0 == "SYSLOG_IDENTIFIER" && $0.1 == Array("wundercast-test".utf8) }
        }
        try #require(ours.count == 2, "expected the entry and its debug note, got \(ours.count)")
        Self.check(Dictionary(grouping: ours[0], by: \.0).mapValues { $0.map(\.1) })
        let note = Dictionary(grouping: ours[1], by: \.0).mapValues { $0.map(\.1) }
        #expect(note["PRIORITY"] == [Array("7".utf8)])
        #expect(note["MESSAGE"].map { String(decoding: $0[0], as: UTF8.self) }
            == "journal field names fixed for journald: \"wundercast_condition\" renamed WUNDERCAST_CONDITION")
    }

    @Test(.enabled(if: mode == .journald, "needs a running journald"))
    func entryReadBackWithJournalctl() async throws {
        let token = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        try Self.send(token: token)
        for _ in 0..<50 {
            if let line = try Self.journalctl(token: token) {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                Self.check(object.compactMapValues(Self.bytes))
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("entry with WUNDERCAST_TEST_TOKEN=\(token) not found by journalctl")
    }

    /// The first line of `journalctl -o json WUNDERCAST_TEST_TOKEN=token`, if any.
    static func journalctl(token: String) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/journalctl")
        process.arguments = ["--no-pager", "-o", "json", "WUNDERCAST_TEST_TOKEN=\(token)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// journalctl's JSON gives a value as a string, as an array of byte numbers (binary or
    /// unprintable values), or as an array of those (a field that appears several times).
    static func bytes(_ json: Any) -> [[UInt8]]? {
        if let string = json as? String { return [Array(string.utf8)] }
        if let numbers = json as? [Int] { return [numbers.map { UInt8(truncatingIfNeeded: $0) }] }
        if let values = json as? [Any] { return values.compactMap { bytes($0)?.first } }
        return nil
    }
}
