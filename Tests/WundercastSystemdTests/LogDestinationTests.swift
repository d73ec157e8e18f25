import Testing
@testable import WundercastSystemd

#if canImport(Glibc)
import Glibc
#endif

@Test(arguments: [
    ("2049:123456", true),
    ("2049:123457", false),
    ("2048:123456", false),
    ("2049", false),
    ("2049:123456:1", false),
    ("", false),
    ("x:y", false),
])
func journalStreamMatches(value: String, expected: Bool) {
    #expect(LogDestination.matches(journalStream: value, device: 2049, inode: 123_456) == expected)
}

extension ProcessEnvironmentTests {
    @Suite struct LogDestinationTests {
        @Test func journalWhenStderrIsTheJournalStream() throws {
            var status = stat()
            try #require(fstat(2, &status) == 0)
            let stream = "\(status.st_dev):\(status.st_ino)"
            withEnvironment(["JOURNAL_STREAM": stream]) {
                let logger = LogDestination.automatic(identifier: "wundercastd", threshold: .debug)
                #expect((logger.sink as? JournalLogSink)?.identifier == "wundercastd")
                #expect(logger.threshold == .debug)
            }
        }

        @Test func stderrOtherwise() {
            withEnvironment(["JOURNAL_STREAM": "0:0"]) {
                #expect(LogDestination.automatic(identifier: "wundercastd", threshold: .info).sink is StderrLogSink)
            }
            withEnvironment(["JOURNAL_STREAM": nil]) {
                let logger = LogDestination.automatic(identifier: "wundercastd", threshold: .warning)
                #expect(logger.sink is StderrLogSink)
                #expect(logger.threshold == .warning)
            }
        }
    }
}
