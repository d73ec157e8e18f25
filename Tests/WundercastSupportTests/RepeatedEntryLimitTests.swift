import Synchronization
import Testing
import WundercastSupport
import WundercastTestSupport

/// Issue 14 (minor): a device flapping once a second gave 245 journal lines a minute.
@Suite struct RepeatedEntryLimitTests {
    final class Recorder: LogSink {
        let entries = Mutex<[(priority: LogPriority, message: String, fields: [(String, String)])]>([])
        func log(
            _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
            function: String
        ) {
            entries.withLock { $0.append((priority, message, fields)) }
        }
        var messages: [String] { entries.withLock { $0.map(\.message) } }
    }

    /// The four entries of one flap (gpsd's device gone, the weather's state, the fix acquired,
    /// the weather's state again), each with its MESSAGE_ID.
    static let flap: [(LogPriority, String, String)] = [
        (
            .warning, "gpsd 127.0.0.1:2947: device /dev/ttyUSB0 deactivated; waiting for it to return",
            MessageID.deviceGone
        ),
        (.warning, "weather: 12°C Clear (device gone)", MessageID.weatherChanged),
        (.info, "GPS fix acquired near 48.1,11.6", MessageID.fixAcquired),
        (.info, "weather: 12°C Clear", MessageID.weatherChanged),
    ]

    @Test func aDeviceFlappingOnceASecondLogsABoundedNumberOfLines() {
        let clock = ManualClock()
        let recorder = Recorder()
        let logger = Logger(sink: recorder).limitingRepeats(now: { clock.now.offset })
        for _ in 0..<300 {  // five minutes
            for (priority, message, id) in Self.flap {
                logger.log(priority, message, fields: [("MESSAGE_ID", id)])
            }
            clock.advance(by: .seconds(1))
        }
        let messages = recorder.messages
        // Each of the 4 kinds: once, then a summary and once again per minute.
        #expect(messages.count <= 4 * 2 * 5, "\(messages.count) lines for 1,200 entries")
        #expect(messages.count >= 4 * 5)
        let summaries = recorder.entries.withLock { $0.filter { $0.message.hasPrefix("suppressed ") } }
        #expect(!summaries.isEmpty)
        for summary in summaries {
            #expect(summary.message.contains("suppressed 59 similar entries in the last 1min: "), "\(summary.message)")
            #expect(summary.fields.contains { $0 == (RepeatedEntryLimit.suppressedField, "59") })
            #expect(summary.fields.contains { $0.0 == "MESSAGE_ID" })
        }
    }

    @Test func differentTextsAndDebugEntriesAreNotLimited() {
        let clock = ManualClock()
        let recorder = Recorder()
        let logger = Logger(sink: recorder, threshold: .debug).limitingRepeats(now: { clock.now.offset })
        for place in ["Regensburg", "Munich", "Passau", "Linz", "Vienna", "Graz", "Brno", "Prague", "Pilsen", "Cham"] {
            logger.log(.info, "GPS fix acquired near \(place)", fields: [("MESSAGE_ID", MessageID.fixAcquired)])
            logger.debug("gpsd 127.0.0.1:2947: watching")
        }
        #expect(recorder.messages.count == 20)
    }

    /// Texts that differ only in their numbers — a stale state's age ("5 s ago", "6 s ago"), a
    /// cell's coordinates — are one kind: a flapping device or cell churn cannot flood the
    /// journal through them.
    @Test func textsDifferingOnlyInNumbersAreRepeats() {
        let clock = ManualClock()
        let recorder = Recorder()
        let logger = Logger(sink: recorder).limitingRepeats(now: { clock.now.offset })
        for second in 0..<30 {
            logger.log(
                .info, "weather: -5°C Clear sky (device gone), \(second) s ago",
                fields: [("MESSAGE_ID", MessageID.weatherChanged)])
            logger.log(
                .info, "GPS fix acquired near 48.\(second % 10),11.6", fields: [("MESSAGE_ID", MessageID.fixAcquired)])
            clock.advance(by: .seconds(1))
        }
        #expect(
            recorder.messages == ["weather: -5°C Clear sky (device gone), 0 s ago", "GPS fix acquired near 48.0,11.6"])
        clock.advance(by: .seconds(60))
        logger.log(.info, "weather: -5°C Clear sky, just now", fields: [("MESSAGE_ID", MessageID.weatherChanged)])
        #expect(
            recorder.messages.contains(
                "suppressed 29 similar entries in the last 1min: weather: -5°C Clear sky (device gone), 0 s ago"),
            "\(recorder.messages)")
    }

    /// After the window the summary comes with the next entry, and the event is logged again.
    @Test func theSummaryFollowsTheWindow() {
        let clock = ManualClock()
        let recorder = Recorder()
        let logger = Logger(sink: recorder).limitingRepeats(now: { clock.now.offset })
        let entry = ("gpsd lost", [("MESSAGE_ID", MessageID.gpsdDisconnected)])
        logger.log(.warning, entry.0, fields: entry.1)
        logger.log(.warning, entry.0, fields: entry.1)
        logger.log(.warning, entry.0, fields: entry.1)
        #expect(recorder.messages == ["gpsd lost"])
        clock.advance(by: .seconds(60))
        logger.info("something else")
        #expect(
            recorder.messages == [
                "gpsd lost", "suppressed 2 similar entries in the last 1min: gpsd lost", "something else",
            ])
        logger.log(.warning, entry.0, fields: entry.1)
        #expect(recorder.messages.last == "gpsd lost")
    }
}
