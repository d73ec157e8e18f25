import Foundation
import Testing
import WundercastSupport
import WundercastSystemd
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `JournalLogSink` through libsystemd's real `sd_journal_sendv`, which always writes to
/// `/run/systemd/journal/socket` (PITFALLS).
/// - No journald here (no systemd as PID 1): as root, the test binds a ``JournalStandIn`` at
///   that path for the moment of the test, parses the native-protocol datagram, and removes
///   the socket and the directories it made.
/// - A running journald (its `stdout` socket beside it): the entry is read back with
///   `journalctl -o json`.
/// - Otherwise (not root): disabled.
@Suite struct JournalEndToEndTests {
    static var mode: JournalStandIn.Availability { JournalStandIn.availability }

    static let message = "Weather changed: 21.5 °C\nsecond line\tkept"

    /// Sends one entry carrying `token` in `WUNDERCAST_TEST_TOKEN`; its `condition` field is
    /// misnamed on purpose, so a debug note follows it.
    static func send(token: String) throws {
        try JournalLogSink(identifier: "wundercast-test").write(
            .notice, message,
            fields: [
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

    @Test(.enabled(if: mode == .standIn, "needs root and no journald"))
    func nativeDatagramThroughStandInSocket() async throws {
        let journal = try await JournalStandIn.open()
        defer { journal.close() }

        let token = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        try Self.send(token: token)
        // A datagram is queued before `sendmsg` returns: closing takes what is queued.
        journal.close()

        // Other programs on the machine may log at the same moment: keep ours.
        let ours = journal.entries(from: getpid()).filter { entry in
            entry["WUNDERCAST_TEST_TOKEN"] == token || entry["SYSLOG_IDENTIFIER"] == "wundercast-test"
        }
        try #require(ours.count == 2, "expected the entry and its debug note, got \(ours.count)")
        Self.check(ours[0].dictionary)
        let note = ours[1].dictionary
        #expect(note["PRIORITY"] == [Array("7".utf8)])
        #expect(
            note["MESSAGE"].map { String(decoding: $0[0], as: UTF8.self) }
                == "journal field names fixed for journald: \"wundercast_condition\" renamed WUNDERCAST_CONDITION")
    }

    @Test(.enabled(if: mode == .journald, "needs a running journald"))
    func entryReadBackWithJournalctl() async throws {
        let token = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        try Self.send(token: token)
        let match = "WUNDERCAST_TEST_TOKEN=\(token)"
        _ = try await Journalctl.waitForEntry([match], "the entry with \(match)") { $0.contains(token) }
        let entry = try #require(
            try await Journalctl.entries([match]).first, "entry with \(match) not found by journalctl")
        Self.check(entry.dictionary)
    }
}
