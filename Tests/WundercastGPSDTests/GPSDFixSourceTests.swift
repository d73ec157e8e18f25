import CGPS
import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
@testable import WundercastGPSD
import WundercastPOSIX
import WundercastTestSupport

/// `GPSDFixSource` against a real gpsd started by gpsfake on a private port.
///
/// Serialized: each test runs its own gpsfake + gpsd, and the machine has two shared cores.
/// Every wait is bounded; a broken source fails a test instead of hanging it. gpsfake starts
/// and ends without holding a thread of the cooperative pool (`GPSFake.start`, its `deinit`).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct GPSDFixSourceTests {
    /// The loop every reader of these tests runs on (as the daemon's reactor).
    static let loop = try! EventLoop(name: "test-gpsd")
    static let nl2008u = Fixtures.url("nmea/nl2008u.log")
    static let bt451 = Fixtures.url("nmea/bt451.log")

    /// Fixes arrive, lie on the replayed track (within its bounding box ± ~11 m), are 2D or
    /// better, and no two consecutive ones repeat one epoch.
    @Test(arguments: [nl2008u, bt451])
    func fixesLieOnTheTrackAndAreNotRepeated(_ log: URL) async throws {
        let track = try NMEATrack.load(log)
        let box = try #require(track.boundingBox)
        let gpsfake = try await GPSFake.start(log: log, cycle: 0.02)
        defer { gpsfake.stopInBackground() }
        let session = Session(
            GPSDFixSource(
                port: gpsfake.port, initialBackoff: .milliseconds(50), maxBackoff: .milliseconds(200), loop: Self.loop))
        defer { session.cancel() }

        let arrived = await session.events.wait { $0.fixes.count >= 25 }
        let fixes = session.fixes
        #expect(arrived, "only \(fixes.count) fixes; gpsfake said: \(gpsfake.output)")
        let margin = 0.0001  // degrees, about 11 m
        for fix in fixes {
            #expect(fix.mode >= .twoD)
            #expect((box.minLatitude - margin...box.maxLatitude + margin).contains(fix.coordinate.latitude), "\(fix)")
            #expect(
                (box.minLongitude - margin...box.maxLongitude + margin).contains(fix.coordinate.longitude), "\(fix)")
        }
        for (previous, fix) in zip(fixes, fixes.dropFirst()) {
            #expect(!Self.repeats(fix, previous), "published twice in one epoch: \(previous) then \(fix)")
        }
        await session.stop()
    }

    /// Nothing listens: the stream reports `.unreachable` (retrying, the outage logged once).
    /// Then gpsd starts on that port: `.connected` comes before the first fix, which is the
    /// log's first position (a client that watches before gpsfake feeds sees it all).
    @Test func unreachableUntilGpsdListensThenConnectedThenTheFirstFix() async throws {
        let track = try NMEATrack.load(Self.nl2008u)
        let port = try GPSFake.freePort()
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: port, logger: Logger(sink: log, threshold: .debug),
                initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100), loop: Self.loop))
        defer { session.cancel() }

        #expect(await session.events.wait { $0.count(where: { $0.isUnreachable }) >= 3 })
        let early = session.events.values
        #expect(early.allSatisfy { $0.isUnreachable }, "\(early)")
        #expect(
            early.allSatisfy {
                $0 == .condition(.unreachable(reason: "cannot reach gpsd at 127.0.0.1:\(port): \(Self.noConnect)"))
            },
            "\(early)")
        #expect(log.outageReports == 1, "an outage is logged once, its retries at debug level")

        let gpsfake = try await GPSFake.start(log: Self.nl2008u, cycle: 0.1, port: port)
        defer { gpsfake.stopInBackground() }
        #expect(await session.events.wait { !$0.fixes.isEmpty }, "gpsfake said: \(gpsfake.output)")
        let events = session.events.values
        let firstFix = try #require(events.firstIndex(where: { $0.isFix }))
        let lastUnreachable = try #require(events.lastIndex(where: { $0.isUnreachable }))
        #expect(events[lastUnreachable + 1..<firstFix] == [.condition(.connected)], "\(events)")

        let first = try #require(session.fixes.first)
        let expected = try #require(track.positions.first)
        let distance = NMEATrack.haversine((first.coordinate.latitude, first.coordinate.longitude), expected)
        #expect(distance < 0.5, "first fix \(first) is \(distance) m from the log's first position")
        #expect(session.connection.values.contains(.connected))
        #expect(log.outageReports == 1)
        await session.stop()
    }

    /// Ending the iteration sends WATCH disable, closes the socket and ends the thread.
    @Test func stoppingIterationClosesTheConnection() async throws {
        let gpsfake = try await GPSFake.start(log: Self.nl2008u, cycle: 0.02)
        defer { gpsfake.stopInBackground() }
        let source = GPSDFixSource(port: gpsfake.port, loop: Self.loop)
        let connection = EventRecorder<GPSDFixSource.ConnectionEvent>()
        let brokeOut = Atomic<Bool>(false)
        let stoppedAfterBreak = Mutex<Bool?>(nil)
        source.onConnectionChange = { event in
            if event == .stopped {
                stoppedAfterBreak.withLock { $0 = brokeOut.load(ordering: .sequentiallyConsistent) }
            }
            connection.append(event)
        }
        let fixes = EventRecorder<Fix>()
        let leave = Atomic<Bool>(false)
        let consumer = Task {
            for await case .fix(let fix) in source.events() {
                fixes.append(fix)
                if leave.load(ordering: .sequentiallyConsistent) {
                    brokeOut.store(true, ordering: .sequentiallyConsistent)
                    break  // drops the iterator: the stream terminates
                }
            }
        }
        defer { consumer.cancel() }

        #expect(await fixes.wait { !$0.isEmpty }, "gpsfake said: \(gpsfake.output)")
        #expect(TCPTable.establishedConnections(toPort: gpsfake.port) == 1, "the source holds one connection")
        leave.store(true, ordering: .sequentiallyConsistent)
        await consumer.value

        #expect(await connection.wait { $0.last == .stopped })
        #expect(stoppedAfterBreak.withLock { $0 } == true, "the source stops after the consumer leaves, not before")
        // `.stopped` is sent after gps_close: the client's socket has left ESTABLISHED already.
        #expect(TCPTable.establishedConnections(toPort: gpsfake.port) == 0)
    }

    /// gpsd goes away and another one starts on the same port: fixes resume on the same
    /// stream, without a new `events()` call; the outage is logged once.
    @Test func reconnectsWhenGpsdRestartsOnTheSamePort() async throws {
        let nl2008u = try #require(NMEATrack.load(Self.nl2008u).boundingBox)
        let bt451 = try #require(NMEATrack.load(Self.bt451).boundingBox)
        let first = try await GPSFake.start(log: Self.nl2008u, cycle: 0.02)
        defer { first.stopInBackground() }
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: first.port, logger: Logger(sink: log, threshold: .debug),
                initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(200), loop: Self.loop))
        defer { session.cancel() }

        #expect(
            await session.events.wait { $0.fixes.contains { Self.contains(nl2008u, $0) } },
            "gpsfake said: \(first.output)")
        await first.stopAndWait()
        #expect(await session.events.wait { $0.contains(where: { $0.isUnreachable }) })
        let lost = try #require(session.events.values.first(where: { $0.isUnreachable }))
        #expect(lost.unreachableReason?.hasPrefix("lost gpsd at 127.0.0.1:\(first.port): ") == true, "\(lost)")
        #expect(await session.events.wait { $0.count(where: { $0.isUnreachable }) >= 3 })
        #expect(log.outageReports == 1)

        let second = try await GPSFake.start(log: Self.bt451, cycle: 0.02, port: first.port)
        defer { second.stopInBackground() }
        #expect(
            await session.events.wait { $0.fixes.contains { Self.contains(bt451, $0) } },
            "no fix from the second gpsd; events: \(session.events.values); gpsfake said: \(second.output)")
        #expect(session.events.values.count(where: { $0 == .condition(.connected) }) == 2)
        #expect(session.connection.values.count(where: { $0 == .connected }) == 2)
        #expect(log.outageReports == 1)
        #expect(log.contains(.info, "connected again"))
        // Connected at start and again after the outage: one entry each, with their MESSAGE_ID.
        #expect(log.count(MessageID.gpsdConnected) == 2)
        await session.stop()
    }

    /// After the log ends (`gpsfake -1`) gpsd reports `"activated":0` and keeps the connection:
    /// the stream says `.deviceGone`, and `.unreachable` only when gpsd itself goes (after
    /// `linger` seconds).
    @Test func deviceGoneAfterTheLogEndsThenUnreachableWhenGpsdGoes() async throws {
        let gpsfake = try await GPSFake.start(log: Self.bt451, cycle: 0.01, once: true, linger: 3)
        defer { gpsfake.stopInBackground() }
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: gpsfake.port, logger: Logger(sink: log, threshold: .debug), initialBackoff: .seconds(5),
                loop: Self.loop))
        defer { session.cancel() }

        #expect(
            await session.events.wait { $0.contains(where: { $0.isDeviceGone }) }, "gpsfake said: \(gpsfake.output)")
        let events = session.events.values
        let gone = try #require(events.firstIndex(where: { $0.isDeviceGone }))
        // gpsfake feeds gpsd through a pseudo-terminal.
        #expect(events[gone].deviceGonePath?.hasPrefix("/dev/pts/") == true, "\(events[gone])")
        #expect(events[..<gone].first == .condition(.connected), "\(events)")
        #expect(events[..<gone].contains(where: { $0.isFix }))
        #expect(!events[..<gone].contains(where: { $0.isUnreachable }), "\(events)")
        // One journal entry of its own kind, logged before the event.
        #expect(log.count(MessageID.deviceGone) == 1)
        #expect(log.contains(.warning, "deactivated"))
        // gpsfake exits `linger` seconds after the end of the log, and its gpsd with it.
        #expect(
            await session.events.wait { $0.contains(where: { $0.isUnreachable }) },
            "gpsd: \(gpsfake.gpsdProcesses); gpsfake said: \(gpsfake.output)")
        await session.stop()
    }

    /// libgps 3.22's `gps_unpack` never returns on a line with junk where a member name is due
    /// before a known class (`{` 0xFF… `"class":"TPV",…`), nor on valid JSON with an array of
    /// objects where it expects none (`{"clas0s":"DEVICES","devices":[{"class":"DEVICE",…}]}`),
    /// both found by `make fuzz`: the reader thread spun at 100% CPU, never read again and never
    /// stopped. Such lines never reach libgps, and the TPV after them is a fix.
    @Test(arguments: ["gpsd_report_gps_unpack_loops.json", "gpsd_report_gps_unpack_loops_nested_class.jsonl"])
    func aLineThatLibgpsLoopsOnIsSkippedAndTheTPVAfterItIsAFix(_ fixture: String) async throws {
        try await Self.expectAFix(after: try Fixtures.bytes("fuzz/\(fixture)"))
    }

    /// The same for a TPV whose value is an array of objects (gpsd's TPV has none): libgps 3.22
    /// loops on `{"class":"TPV","a":[{"class":"TPV"}]}` too, so a TPV reaches it only flat.
    @Test func aTPVWithNestedValuesIsSkippedAndTheTPVAfterItIsAFix() async throws {
        try await Self.expectAFix(after: Array(#"{"class":"TPV","a":[{"class":"TPV"}]}"#.utf8))
    }

    /// A fake gpsd sends `lines` and then a TPV at 12.5,34.5: that TPV must become a fix.
    static func expectAFix(after lines: [UInt8]) async throws {
        let reports = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpsd-reports-\(UUID().uuidString)")
        let tpv = #"{"class":"TPV","device":"/dev/pts/3","mode":2,"lat":12.5,"lon":34.5}"#
        try Data(lines + Array("\n\(tpv)\n".utf8)).write(to: reports)
        defer { try? FileManager.default.removeItem(at: reports) }
        let gpsd = try FakeGPSD(reports: reports)
        defer { gpsd.stop() }
        let session = Session(GPSDFixSource(port: gpsd.port, loop: Self.loop))
        defer { session.cancel() }

        #expect(
            await session.events.wait {
                $0.fixes.contains { $0.coordinate == Coordinate(latitude: 12.5, longitude: 34.5) }
            },
            "events: \(session.events.values); fake gpsd: \(gpsd.output)")
        await session.stop()
    }

    /// A broken gpsd that greets and then sends a 40 KB line (the connection is dropped):
    /// the banner does not make the connection healthy, so no `.connected`, and every delay
    /// before the next attempt is longer than the last until the maximum.
    @Test func backoffGrowsAgainstAGpsdThatSendsAnOverlongLine() async throws {
        let gpsd = try FakeGPSD()
        defer { gpsd.stop() }
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: gpsd.port, logger: Logger(sink: log, threshold: .debug),
                initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(160), loop: Self.loop))
        defer { session.cancel() }

        #expect(await session.events.wait { $0.count(where: { $0.isUnreachable }) >= 6 }, "fake gpsd: \(gpsd.output)")
        await session.stop()
        let events = session.events.values
        #expect(!events.contains(.condition(.connected)), "\(events)")
        #expect(
            events.allSatisfy { $0.unreachableReason?.hasPrefix("lost gpsd at 127.0.0.1:\(gpsd.port): ") == true },
            "each attempt connected and was then dropped: \(events)")
        #expect(gpsd.connections >= 6)
        let delays = log.retryDelays
        #expect(Array(delays.prefix(6)) == [10, 20, 40, 80, 160, 160], "\(delays)")
        #expect(log.outageReports == 1)
    }

    /// A TPV as gpsd 3.22 writes it; `{time}` is a new second each time the fake sends it.
    static let tpv =
        #"{"class":"TPV","device":"/dev/fake","mode":3,"time":"{time}","lat":48.137154,"lon":11.576124,"altHAE":519.0,"eph":5.0}"#

    /// Issue 14, M1: a gpsd that greets, sends one TPV (an accepted fix) and closes — a crash
    /// loop, a flaky link — is reconnected with growing back-off. Over a simulated minute on a
    /// manual clock: 8 connections (at 0, 0.25, 0.75, 1.75, 3.75, 7.75, 15.75 and 31.75 s; the next
    /// at 61.75 s),
    /// where any TPV resetting the back-off made 240.
    @Test func aGpsdThatSendsOneTPVAndClosesIsReconnectedWithGrowingBackoff() async throws {
        let gpsd = try FakeGPSD(lines: [Self.tpv])
        defer { gpsd.stop() }
        let (clock, _, session) = Self.onManualClock(gpsd)
        defer { session.cancel() }

        let delays = try await Self.backoffDelays(on: clock, until: .seconds(60), atMost: 40)
        #expect(delays.count < 40, "reconnected more than 40 times in a simulated minute: \(delays.prefix(10)) ...")
        #expect(
            delays == [250, 500, 1000, 2000, 4000, 8000, 16000].map { Duration.milliseconds($0) },
            "\(delays)")
        // The fake's own count comes through its output, which a loaded machine delivers late:
        // waited for, then checked exactly (no ninth: its wake-up is past the simulated minute).
        try await gpsd.connectionsReach(8)
        #expect(gpsd.connections == 8, "fake gpsd: \(gpsd.output)")
        #expect(!session.fixes.isEmpty, "each connection gave its fix")
        await session.stop()
    }

    /// A connection kept open 30 s (on the manual clock) with accepted fixes is stable: the
    /// delay after it is the initial one again.
    @Test func aConnectionKept30sWithFixesResetsTheBackoff() async throws {
        let gpsd = try FakeGPSD(lines: [Self.tpv], holdConnection: 4)
        defer { gpsd.stop() }
        let (clock, log, session) = Self.onManualClock(gpsd)
        defer { session.cancel() }

        let delays = try await Self.backoffDelays(on: clock, until: .seconds(1.75), atMost: 3)
        #expect(delays == [.milliseconds(250), .milliseconds(500), .milliseconds(1000)])
        // Connection 4 is held open, sending a fix every 0.1 s.
        #expect(await session.events.wait { $0.fixes.count >= 4 }, "fake gpsd: \(gpsd.output)")
        // The stable-after timer fires on the way: the connection is 30 s old with fixes.
        await clock.advance(by: .seconds(30))
        let seen = session.fixes.count
        #expect(await session.events.wait { $0.fixes.count > seen }, "fake gpsd: \(gpsd.output)")
        gpsd.releaseHeldConnection()
        let after = try await Self.backoffDelays(on: clock, until: clock.now + .seconds(1), atMost: 1)
        #expect(after == [.milliseconds(250)], "after a stable connection the back-off starts over")
        // The attempt after the last advance may have failed too by now: the first four count.
        #expect(Array(log.retryDelays.prefix(4)) == [250, 500, 1000, 250], "\(log.retryDelays)")
        await session.stop()
    }

    /// A gpsd without a receiver greets and then says nothing: the connection is `.connected`
    /// once it has been up `connectedAfter` (10 s on the manual clock; a loop timer looks then),
    /// not before, and no line is needed for it.
    @Test func aQuietConnectionIsConnectedAfterConnectedAfter() async throws {
        let quiet = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-quiet-\(UUID().uuidString)")
        try Data().write(to: quiet)
        defer { try? FileManager.default.removeItem(at: quiet) }
        let gpsd = try FakeGPSD(reports: quiet)
        defer { gpsd.stop() }
        let (clock, _, session) = Self.onManualClock(gpsd)
        defer { session.cancel() }

        let deadline = try await withDeadline(.seconds(30), "the connected-after timer") {
            try await clock.waitForTimer(named: GPSDReader.connectedTimer)
        }
        #expect(deadline == .seconds(10))
        try await gpsd.outputLog.waitFor(containing: #"received 1 ?WATCH={"enable":true,"json":true};"#)
        await clock.advance(by: .seconds(9.999))
        #expect(!session.events.values.contains(.condition(.connected)), "\(session.events.values)")
        await clock.advance(by: .milliseconds(1))
        // The timer ran on the loop; its event reaches the session's recorder through the stream.
        #expect(await session.events.wait { !$0.isEmpty }, "no event after connectedAfter")
        #expect(session.events.values == [.condition(.connected)])
        #expect(await session.connection.wait { !$0.isEmpty }, "no connection event")
        #expect(session.connection.values == [.connected])
        await session.stop()
    }

    /// Issue 14 (minor): numbers libgps reads as 0 (`-Infinity`, `0x10`, `--1`) never become a
    /// fix at latitude or longitude 0; the good TPV after them is published.
    @Test func malformedLatitudeOrLongitudeIsNeverAFix() async throws {
        let bad = ["-Infinity", "0x10", "--1"].flatMap { value in
            [
                Self.tpv.replacingOccurrences(of: #""lat":48.137154"#, with: #""lat":\#(value)"#),
                Self.tpv.replacingOccurrences(of: #""lon":11.576124"#, with: #""lon":\#(value)"#),
            ]
        }
        let gpsd = try FakeGPSD(lines: bad + [Self.tpv])
        defer { gpsd.stop() }
        let session = Session(GPSDFixSource(port: gpsd.port, initialBackoff: .seconds(5), loop: Self.loop))
        defer { session.cancel() }

        #expect(
            await session.events.wait { $0.fixes.contains { $0.coordinate.latitude == 48.137154 } },
            "fake gpsd: \(gpsd.output)")
        await session.stop()
        let fixes = session.fixes
        #expect(
            fixes.allSatisfy { $0.coordinate == Coordinate(latitude: 48.137154, longitude: 11.576124) }, "\(fixes)")
    }

    /// A session with the daemon's back-off (250 ms … 30 s) against `gpsd`, on a manual clock,
    /// logging into a recorder.
    static func onManualClock(_ gpsd: FakeGPSD) -> (ManualLoopClock, LogRecorder, Session) {
        let clock = ManualLoopClock(loop: Self.loop)
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: gpsd.port, logger: Logger(sink: log, threshold: .debug), initialBackoff: .milliseconds(250),
                maxBackoff: .seconds(30), clock: clock))
        return (clock, log, session)
    }

    /// The back-off waits of the reader on `clock`, advancing past each, until the next wake-up
    /// would be after `end` or `atMost` waits were seen. Each wait is a timer named
    /// ``GPSDReader/backoffTimer`` that the reader scheduled (a condition, not a poll); a wait for
    /// one that never comes fails after 30 s.
    static func backoffDelays(on clock: ManualLoopClock, until end: Duration, atMost: Int) async throws -> [Duration] {
        var delays: [Duration] = []
        while delays.count < atMost {
            let deadline = try await withDeadline(.seconds(30), "back-off timer \(delays.count + 1)") {
                try await clock.waitForTimer(named: GPSDReader.backoffTimer)
            }
            guard deadline <= end else { break }
            delays.append(deadline - clock.now)
            await clock.advance(to: deadline)
        }
        return delays
    }

    // MARK: - On the loop, without a thread of its own

    /// Issue 15: while fixes stream, no reader has a thread — the old reader was a pthread
    /// named `wundercast-gpsd` per stream. With more streams than the machine has cores (the
    /// cooperative pool grows up to that) plus Dispatch's workers, the process has no thread of
    /// that name and fewer new threads than streams.
    @Test func whileStreamingNoThreadOfTheReaderExists() async throws {
        // A connection a thread at the fake gpsd: every stream gets fixes at once.
        let gpsd = try FakeGPSD(script: GPSDStep.healthy(latitude: 48.1173, longitude: 11.5167, interval: 0.2))
        defer { gpsd.stop() }
        await Self.loop.perform {}  // the loop's own thread exists before the count
        let before = Threads.names()
        let streams = ProcessInfo.processInfo.activeProcessorCount + 4
        let sessions = (0..<streams).map { _ in Session(GPSDFixSource(port: gpsd.port, loop: Self.loop)) }
        defer { for session in sessions { session.cancel() } }
        for session in sessions {
            #expect(await session.events.wait { $0.fixes.count >= 2 }, "fake gpsd: \(gpsd.output)")
        }
        let streaming = Threads.names()
        #expect(!streaming.contains("wundercast-gpsd"), "\(streaming)")
        #expect(streaming.count - before.count < streams, "before: \(before); streaming: \(streaming)")
        for session in sessions { await session.stop() }
    }

    /// Every line is handled on the loop's thread: each log entry of the reader (the lines it
    /// skipped, the connection's news) and each connection event is made there.
    @Test func theReaderHandlesLinesOnTheLoopThread() async throws {
        let reports = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpsd-reports-\(UUID().uuidString)")
        let tpv = #"{"class":"TPV","device":"/dev/pts/3","mode":2,"lat":12.5,"lon":34.5}"#
        try Data("not json\n{\"class\":\"SKY\"}\n\(tpv)\n".utf8).write(to: reports)
        defer { try? FileManager.default.removeItem(at: reports) }
        let gpsd = try FakeGPSD(reports: reports)
        defer { gpsd.stop() }
        let loop = Self.loop
        let log = LogRecorder(onLoop: loop)
        let onLoop = EventRecorder<Bool>()
        let source = GPSDFixSource(port: gpsd.port, logger: Logger(sink: log, threshold: .debug), loop: loop)
        let session = Session(source)
        source.onConnectionChange = { event in
            onLoop.append(loop.isCurrent)
            session.connection.append(event)
        }
        defer { session.cancel() }

        #expect(await session.events.wait { !$0.fixes.isEmpty }, "fake gpsd: \(gpsd.output)")
        await session.stop()
        #expect(log.contains(.debug, "skipped a line"))
        #expect(!log.madeOnLoop.isEmpty && log.madeOnLoop.allSatisfy { $0 }, "\(log.madeOnLoop)")
        #expect(!onLoop.values.isEmpty && onLoop.values.allSatisfy { $0 }, "\(onLoop.values)")
    }

    /// A consumer that stops releases gpsd at once: the fake gpsd reads
    /// `?WATCH={"enable":false,"json":false};` (what `gps_stream(WATCH_DISABLE)` sent) and then
    /// the close, within two seconds however loaded the machine (the old reader looked at its
    /// stop flag every 200 ms; now the stop is an event on the loop).
    @Test func stoppingTheStreamReleasesGpsdPromptly() async throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-held-\(UUID().uuidString)")
        try Data("\(Self.tpv)\n".replacingOccurrences(of: "{time}", with: "2026-12-01T12:00:00.000Z").utf8)
            .write(to: reports)
        defer { try? FileManager.default.removeItem(at: reports) }
        let held = try FakeGPSD(reports: reports)
        defer { held.stop() }
        let session = Session(GPSDFixSource(port: held.port, loop: Self.loop))
        defer { session.cancel() }

        #expect(await session.events.wait { !$0.fixes.isEmpty }, "fake gpsd: \(held.output)")
        // The fake logs what it read on its own output, which may come after the fix it sent.
        try await held.outputLog.waitFor("the WATCH of connection 1", timeout: .seconds(10)) {
            $0 == #"received 1 ?WATCH={"enable":true,"json":true};"#
        }
        let stopping = ContinuousClock.now
        await session.stop()
        try await held.outputLog.waitFor("the close of connection 1", timeout: .seconds(2)) { $0 == "closed 1" }
        #expect(ContinuousClock.now - stopping < .seconds(2))
        let lines = held.outputLog.lines
        let disable = try #require(
            lines.firstIndex(of: #"received 1 ?WATCH={"enable":false,"json":false};"#), "\(lines)")
        #expect(disable < lines.firstIndex(of: "closed 1")!)
        #expect(TCPTable.establishedConnections(toPort: held.port) == 0)
    }

    /// A host name still works: `localhost` is looked up (off the loop: the lookup never runs
    /// on its thread) and connected to.
    @Test func aHostNameIsLookedUpOffTheLoopAndConnected() async throws {
        let gpsd = try FakeGPSD(
            tpv: #"{"class":"TPV","device":"/dev/ttyUSB0","mode":2,"lat":48.1173,"lon":11.5167}"#, interval: 0.2)
        defer { gpsd.stop() }
        let loop = Self.loop
        let lookups = EventRecorder<Bool>()
        let session = Session(
            GPSDFixSource(
                host: "localhost", port: gpsd.port,
                clock: ContinuousLoopClock(loop: loop),
                lookUp: { host, port in
                    lookups.append(loop.isCurrent)
                    return SocketAddress.lookUp(host: host, port: port)
                }))
        defer { session.cancel() }

        #expect(await session.events.wait { !$0.fixes.isEmpty }, "events: \(session.events.values)")
        await session.stop()
        #expect(lookups.values == [false], "one lookup, off the loop: \(lookups.values)")
    }

    /// The addresses of a name are tried in order, as `gps_open` did: one that refuses (`::1`
    /// here, where nothing listens on the port) and then the one gpsd listens on.
    @Test func theAddressesOfANameAreTriedInOrder() async throws {
        let gpsd = try FakeGPSD(
            tpv: #"{"class":"TPV","device":"/dev/ttyUSB0","mode":2,"lat":48.1173,"lon":11.5167}"#, interval: 0.2)
        defer { gpsd.stop() }
        let session = Session(
            GPSDFixSource(
                host: "gpsd.test", port: gpsd.port, clock: ContinuousLoopClock(loop: Self.loop),
                lookUp: { _, port in
                    .success([
                        SocketAddress(numericHost: "::1", port: port)!,
                        SocketAddress(numericHost: "127.0.0.1", port: port)!,
                    ])
                }))
        defer { session.cancel() }

        #expect(await session.events.wait { !$0.fixes.isEmpty }, "events: \(session.events.values)")
        #expect(!session.events.values.contains { $0.isUnreachable }, "\(session.events.values)")
        await session.stop()
    }

    /// A name without an address is libgps's "can't get host entry", retried with back-off.
    @Test func aNameWithoutAnAddressIsCantGetHostEntry() async throws {
        let session = Session(
            GPSDFixSource(
                host: "no-such-gpsd.invalid", port: 2947, initialBackoff: .milliseconds(10),
                maxBackoff: .milliseconds(20), clock: ContinuousLoopClock(loop: Self.loop),
                lookUp: { _, _ in .failure(SocketAddress.LookupError(code: EAI_NONAME)) }))
        defer { session.cancel() }

        #expect(await session.events.wait { $0.count >= 2 })
        await session.stop()
        #expect(
            session.events.values.allSatisfy {
                $0
                    == .condition(
                        .unreachable(reason: "cannot reach gpsd at no-such-gpsd.invalid:2947: can't get host entry"))
            },
            "\(session.events.values)")
        #expect(session.connection.values.first == .connectFailed(reason: "can't get host entry"))
    }

    /// A lookup that does not answer blocks neither the loop nor the reader: the attempt fails
    /// after `lookupLimit` (back-off follows), the attempts meanwhile wait for the same lookup
    /// (one at a time, never a second blocked lookup), the loop serves other work, and once
    /// the resolver answers again the stream connects.
    @Test func aLookupThatDoesNotAnswerIsWaitedForAtMostTheLimit() async throws {
        let gpsd = try FakeGPSD(
            tpv: #"{"class":"TPV","device":"/dev/ttyUSB0","mode":2,"lat":48.1173,"lon":11.5167}"#, interval: 0.2)
        defer { gpsd.stop() }
        let answer = DispatchSemaphore(value: 0)
        let lookups = Atomic<Int>(0)
        let session = Session(
            GPSDFixSource(
                host: "slow.test", port: gpsd.port, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(20),
                clock: ContinuousLoopClock(loop: Self.loop),
                lookUp: { _, port in
                    if lookups.wrappingAdd(1, ordering: .relaxed).oldValue == 0 { answer.wait() }
                    return .success([SocketAddress(numericHost: "127.0.0.1", port: port)!])
                }, lookupLimit: .milliseconds(100)))
        defer { session.cancel() }

        #expect(await session.events.wait { $0.count(where: { $0.isUnreachable }) >= 3 })
        let started = ContinuousClock.now
        await Self.loop.perform {}
        #expect(ContinuousClock.now - started < .seconds(5), "the loop is not blocked by the lookup")
        #expect(lookups.load(ordering: .relaxed) == 1, "one lookup at a time")
        #expect(
            session.events.values.allSatisfy {
                $0
                    == .condition(
                        .unreachable(reason: "cannot reach gpsd at slow.test:\(gpsd.port): can't get host entry"))
            })
        answer.signal()
        #expect(await session.events.wait { !$0.fixes.isEmpty }, "events: \(session.events.values)")
        await session.stop()
    }

    /// Issue 14: a stationary receiver whose TPVs carry no `time` keeps delivering fixes — one
    /// per TPV a second apart — so its position stays current while they arrive.
    @Test func aStationaryReceiverWithoutTimeKeepsDeliveringFixes() async throws {
        let gpsd = try FakeGPSD(
            tpv: #"{"class":"TPV","device":"/dev/ttyUSB0","mode":2,"lat":48.1173,"lon":11.5167}"#, interval: 0.6)
        defer { gpsd.stop() }
        let session = Session(GPSDFixSource(port: gpsd.port, logger: .discard, loop: Self.loop))
        defer { session.cancel() }
        #expect(await session.events.wait { $0.fixes.count >= 3 }, "fake gpsd: \(gpsd.output)")
        await session.stop()
        #expect(session.fixes.allSatisfy { $0.time == nil && $0.coordinate.latitude == 48.1173 }, "\(session.fixes)")
    }

    // MARK: - Helpers

    /// `gps_errstr(NL_NOCONNECT)` of libgps 3.22.
    static let noConnect = "can't connect to host/port pair"

    static func contains(
        _ box: (minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double), _ fix: Fix
    ) -> Bool {
        (box.minLatitude...box.maxLatitude).contains(fix.coordinate.latitude)
            && (box.minLongitude...box.maxLongitude).contains(fix.coordinate.longitude)
    }

    /// `fix` repeats `previous`: same epoch (same GPS time, or both without), within 1 m, and
    /// nothing better (no higher mode, no new or smaller error).
    static func repeats(_ fix: Fix, _ previous: Fix) -> Bool {
        let sameTime: Bool
        switch (fix.time, previous.time) {
        case let (a?, b?): sameTime = abs(a.timeIntervalSince(b)) < 0.001
        case (nil, nil): sameTime = true
        default: sameTime = false
        }
        let distance = NMEATrack.haversine(
            (fix.coordinate.latitude, fix.coordinate.longitude),
            (previous.coordinate.latitude, previous.coordinate.longitude))
        let betterError =
            fix.horizontalError.map { error in previous.horizontalError.map { error < $0 } ?? true } ?? false
        return sameTime && distance <= 1 && fix.mode <= previous.mode && !betterError
    }
}

/// The pure parts of the adapter, without gpsd.
@Suite struct GPSDFixSourceUnitTests {
    static let deviceLines: [(String, Bool)] = [
        (#"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#, true),  // seen from gpsd 3.22
        (#"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":0,"driver":"NMEA0183"}"#, true),
        (#"{"class":"DEVICE","path":"/dev/pts/1","activated":"2026-11-29T12:29:20.511Z"}"#, false),
        (#"{"class":"DEVICE","path":"/dev/pts/1","activated":0.5}"#, false),
    ]

    @Test("DEVICE with activated 0 is a deactivation", arguments: deviceLines)
    func deactivation(_ line: String, _ deactivated: Bool) {
        #expect(GPSDConnection.isDeactivation(line) == deactivated)
        #expect(GPSDConnection.stringValue(of: "path", in: line)?.hasPrefix("/dev/") == true)
    }

    /// A DEVICE path is outside text: where it enters, an ESC (`\u001b` in the JSON, decoded by
    /// nobody but shown as is) and a 400-character path are cut to 100 scalars without control
    /// characters before a state message or the journal sees it (issue 14).
    @Test func aDevicePathIsBoundedAndCleanWhereItEnters() {
        let hostile = "/dev/\u{1b}[31m" + String(repeating: "x", count: 400)
        let line = #"{"class":"DEVICE","path":"\#(hostile)","activated":0}"#
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        GPSDConnection.zero(data)
        let text = Array(line.utf8CString)
        let message = text.withUnsafeBufferPointer { GPSDConnection.message(of: data, line: $0.baseAddress!) }
        guard case .deviceDeactivated(let path) = message else {
            Issue.record("not a deactivation: \(message)")
            return
        }
        #expect(path.unicodeScalars.count <= 100, "\(path.count) scalars")
        #expect(!path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(path.debugDescription)")
    }
}

extension GPSDFixSourceUnitTests {
    /// A TPV at exactly 0,0 without a time is no position (a defaulted record, not a receiver:
    /// the fault suite's Null Island lie); with a time, or anywhere else, it is one.
    @Test(arguments: [
        (#"{"class":"TPV","mode":2,"lat":0,"lon":0}"#, false),
        (#"{"class":"TPV","mode":2,"lat":0.0,"lon":-0.0}"#, false),
        (#"{"class":"TPV","mode":2,"time":"2026-12-01T12:00:00.000Z","lat":0,"lon":0}"#, true),
        (#"{"class":"TPV","mode":2,"lat":0,"lon":0.00001}"#, true),
        (#"{"class":"TPV","mode":2,"lat":48.1,"lon":11.5}"#, true),
    ])
    func nullIslandWithoutATimeIsNoPosition(_ line: String, _ isPosition: Bool) {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        GPSDConnection.zero(data)
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: GPSDConnection.lineCapacity)
        defer { text.deallocate() }
        let message = GPSDConnection.unpack(Array(line.utf8) + [10], into: data, line: text)
        switch message {
        case .position: #expect(isPosition, "\(line)")
        case .tpvWithoutPosition: #expect(!isPosition, "\(line)")
        default: Issue.record("\(line): \(message)")
        }
    }
}

/// The back-off and health rule of the reconnect loop, without gpsd and without a clock.
@Suite struct ReconnectScheduleTests {
    static func schedule(maximum: Duration = .milliseconds(800)) -> ReconnectSchedule {
        ReconnectSchedule(
            backoff: Backoff(initial: .milliseconds(100), maximum: maximum), connectedAfter: .seconds(10),
            stableAfter: .seconds(30))
    }

    @Test func delaysGrowWithEachFailureUpToTheMaximum() {
        var schedule = Self.schedule()
        let delays = (1...6).map { _ in schedule.failed() }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(800),
                .milliseconds(800),
            ])
        #expect(schedule.failures == 6)
    }

    /// The broken gpsd of the field report: VERSION (and other greeting lines), then the
    /// connection drops. None of it makes the connection connected or resets the back-off.
    @Test func aBannerAndOtherLinesDoNotMakeAConnectionConnected() {
        var schedule = Self.schedule()
        var delays: [Duration] = []
        for _ in 1...4 {
            schedule.opened()
            let result1 = schedule.observe(.other, upFor: .milliseconds(1))
            #expect(!result1)  // VERSION
            let result2 = schedule.observe(.other, upFor: .milliseconds(2))
            #expect(!result2)  // DEVICES, WATCH
            let result3 = schedule.observe(.other, upFor: .seconds(9))
            #expect(!result3)  // quiet poll, not long enough
            #expect(!schedule.isConnected)
            delays.append(schedule.failed())
        }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
    }

    /// Issue 14, M1: a gpsd that sends one TPV (a fix, even) and closes is connected each time,
    /// but never stable: the back-off keeps growing.
    @Test func oneTPVOrFixBeforeACloseDoesNotResetTheBackoff() {
        var schedule = Self.schedule()
        var delays: [Duration] = []
        for evidence in [ReconnectSchedule.Evidence.fix, .tpv, .fix, .fix] {
            schedule.opened()
            let connected = schedule.observe(evidence, upFor: .milliseconds(5))
            #expect(connected, "a TPV makes the connection connected")
            #expect(!schedule.isStable)
            delays.append(schedule.failed())
        }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
    }

    @Test func aTPVMakesTheConnectionConnectedOnce() {
        var schedule = Self.schedule()
        _ = schedule.failed()
        schedule.opened()
        let result4 = schedule.observe(.other, upFor: .zero)
        #expect(!result4)
        let result5 = schedule.observe(.tpv, upFor: .milliseconds(5))
        #expect(result5, "the first TPV makes it connected")
        #expect(schedule.isConnected)
        let result6 = schedule.observe(.tpv, upFor: .milliseconds(6))
        #expect(!result6, "reported once per connection")
        #expect(schedule.failures == 1, "connected is not stable")
    }

    /// Open for `stableAfter` with an accepted fix: the back-off starts over.
    @Test func aConnectionOpen30sWithAFixResetsTheBackoff() {
        var schedule = Self.schedule()
        _ = schedule.failed()
        _ = schedule.failed()
        _ = schedule.failed()
        schedule.opened()
        _ = schedule.observe(.fix, upFor: .milliseconds(5))
        _ = schedule.observe(.other, upFor: .milliseconds(29_999))
        #expect(!schedule.isStable)
        #expect(schedule.failures == 3)
        _ = schedule.observe(.other, upFor: .seconds(30))
        #expect(schedule.isStable)
        #expect(schedule.failures == 0)
        let next = schedule.failed()
        #expect(next == .milliseconds(100), "after a stable connection the back-off starts over")
    }

    /// Up 30 s, but no accepted fix (a gpsd without a receiver, or TPVs without a position):
    /// connected, not stable.
    @Test func thirtySecondsWithoutAFixIsNotStable() {
        var schedule = Self.schedule()
        _ = schedule.failed()
        schedule.opened()
        _ = schedule.observe(.tpv, upFor: .seconds(1))
        let connected = schedule.observe(.other, upFor: .seconds(60))
        #expect(!connected, "already reported")
        #expect(schedule.isConnected)
        #expect(!schedule.isStable)
        #expect(schedule.failed() == .milliseconds(200))
    }

    /// When the back-off before the connection is longer than `stableAfter`, the connection must
    /// stay up that long.
    @Test func aBackoffLongerThan30sIsTheTimeToStability() {
        var schedule = Self.schedule(maximum: .seconds(120))
        for _ in 1...12 { _ = schedule.failed() }
        #expect(schedule.stableFor == .seconds(120))
        schedule.opened()
        _ = schedule.observe(.fix, upFor: .seconds(31))
        #expect(!schedule.isStable)
        _ = schedule.observe(.fix, upFor: .seconds(120))
        #expect(schedule.isStable)
        #expect(schedule.failures == 0)
    }

    /// gpsd without a receiver greets and then says nothing: a connection that stays up
    /// without error for `connectedAfter` is connected too.
    @Test func aConnectionUpLongEnoughIsConnected() {
        var schedule = Self.schedule()
        _ = schedule.failed()
        _ = schedule.failed()
        schedule.opened()
        let result8 = schedule.observe(.other, upFor: .milliseconds(9_999))
        #expect(!result8)
        let result9 = schedule.observe(.other, upFor: .seconds(10))
        #expect(result9)
        #expect(schedule.failures == 2)
    }

    @Test func anOpenedConnectionStartsUnconnected() {
        var schedule = Self.schedule()
        schedule.opened()
        let result10 = schedule.observe(.tpv, upFor: .zero)
        #expect(result10)
        _ = schedule.failed()
        schedule.opened()
        #expect(!schedule.isConnected)
        #expect(schedule.failures == 1)
    }
}

/// The text of TPV numbers (issue 14: libgps reads `-Infinity`, `0x10`, `--1` as 0).
@Suite struct TPVNumberTextTests {
    static let numbers: [(String, Bool)] = [
        ("48.137154", true), ("-0.5", true), ("0", true), ("-0", true), ("1e3", true), ("1.5E-07", true),
        ("11", true), ("-Infinity", false), ("Infinity", false), ("NaN", false), ("0x10", false), ("--1", false),
        ("", false), ("01", false), ("1.", false), (".5", false), ("+1", false), ("1e", false), ("\"1\"", false),
    ]

    @Test(arguments: numbers)
    func jsonNumbers(_ text: String, _ isNumber: Bool) {
        #expect(GPSDConnection.isJSONNumber(text[...]) == isNumber)
    }

    @Test func aMalformedFieldIsNotReported() {
        let line = #"{"class":"TPV","mode":3,"lat":--1,"lon":11.5,"eph":0x10,"speed":0.2}"#
        #expect(GPSDConnection.numberText(of: "lat", in: line) == nil)
        #expect(GPSDConnection.numberText(of: "lon", in: line) == "11.5")
        #expect(GPSDConnection.reported(0, "eph", in: line).isNaN)
        #expect(GPSDConnection.reported(0.2, "speed", in: line) == 0.2)
        #expect(GPSDConnection.reported(.nan, "track", in: line).isNaN, "absent: libgps's NaN")
    }

    /// A key that stands twice is no number: libgps keeps the last value, which the check of the
    /// first would never see (`"lon":11.5,"lon":--1` was published as longitude 0).
    @Test func aRepeatedKeyIsNotANumber() {
        let line = #"{"class":"TPV","mode":3,"lat":48.1,"lon":11.5,"lon":--1,"eph":5,"eph":5}"#
        #expect(GPSDConnection.numberText(of: "lat", in: line) == "48.1")
        #expect(GPSDConnection.numberText(of: "lon", in: line) == nil)
        #expect(GPSDConnection.reported(5, "eph", in: line).isNaN)
    }
}

// MARK: - Test plumbing

/// One `events()` stream consumed by a task that records every event, plus the source's
/// connection events. Waits are woken by the recording itself (``EventRecorder``).
final class Session: Sendable {
    let events = EventRecorder<FixSourceEvent>()
    let connection = EventRecorder<GPSDFixSource.ConnectionEvent>()
    private let consumer: Task<Void, Never>

    init(_ source: GPSDFixSource) {
        let events = events
        let connection = connection
        source.onConnectionChange = { connection.append($0) }
        consumer = Task {
            for await event in source.events() { events.append(event) }
        }
    }

    /// The fixes delivered so far.
    var fixes: [Fix] { events.values.fixes }

    /// Cancels the consumer (the stream terminates) and waits for the reader to report `.stopped`.
    func stop() async {
        consumer.cancel()
        await consumer.value
        #expect(await connection.wait(.seconds(5)) { $0.last == .stopped }, "the reader did not stop")
    }

    /// For `defer`: cancel without waiting.
    func cancel() { consumer.cancel() }
}

/// Log entries, for checking what was logged and how often.
final class LogRecorder: LogSink {
    private let entries = Mutex<[(priority: LogPriority, message: String, fields: [(String, String)])]>([])
    /// With `onLoop`: for each entry, whether it was made on that loop's thread.
    private let loop: EventLoop?
    private let onLoop = Mutex<[Bool]>([])

    init(onLoop loop: EventLoop? = nil) {
        self.loop = loop
    }

    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        if let loop {
            let current = loop.isCurrent
            onLoop.withLock { $0.append(current) }
        }
        entries.withLock { $0.append((priority, message, fields)) }
    }

    /// Whether each entry was made on the loop's thread (``init(onLoop:)``).
    var madeOnLoop: [Bool] { onLoop.withLock { $0 } }

    /// Entries with `MESSAGE_ID` = ``MessageID/gpsdDisconnected``.
    var outageReports: Int {
        entries.withLock { $0.count { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.gpsdDisconnected) } } }
    }

    /// The back-off delays logged with failed attempts, in milliseconds, oldest first.
    var retryDelays: [Int] {
        entries.withLock { entries in
            entries.compactMap { entry in
                entry.fields.first { $0.0 == GPSDReader.retryDelayField }.flatMap { Int($0.1) }
            }
        }
    }

    /// Entries with `MESSAGE_ID` = `id`.
    func count(_ id: String) -> Int {
        entries.withLock { $0.count { $0.fields.contains { $0 == ("MESSAGE_ID", id) } } }
    }

    func contains(_ priority: LogPriority, _ text: String) -> Bool {
        entries.withLock { $0.contains { $0.priority == priority && $0.message.contains(text) } }
    }
}

/// The kernel's TCP table (`/proc/net/tcp`): real connection state, independent of the source.
enum TCPTable {
    /// Established IPv4 connections whose *remote* port is `port`: clients of the gpsd there.
    static func establishedConnections(toPort port: Int) -> Int {
        // Read to the end by hand: Foundation's String(contentsOfFile:) and Data(contentsOf:)
        // stop after the first page of a /proc file (seen here: 27 of 30 lines).
        guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp"),
            let data = try? handle.readToEnd()
        else { return -1 }
        try? handle.close()
        let text = String(decoding: data, as: UTF8.self)
        let remote = String(format: ":%04X", port)
        return text.split(separator: "\n").dropFirst().count { line in
            let fields = line.split(separator: " ")
            // sl local_address rem_address st ...; state 01 is ESTABLISHED.
            return fields.count > 3 && fields[2].hasSuffix(remote) && fields[3] == "01"
        }
    }
}

/// The process's threads as the kernel names them (`/proc/self/task/*/comm`, what `top -H` shows).
enum Threads {
    static func names() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            guard let handle = FileHandle(forReadingAtPath: "/proc/self/task/\(task)/comm"),
                let data = try? handle.readToEnd()
            else { return nil }
            try? handle.close()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}

extension FixSourceEvent {
    var isFix: Bool {
        if case .fix = self { return true }
        return false
    }

    var isUnreachable: Bool { unreachableReason != nil }

    var unreachableReason: String? {
        if case .condition(.unreachable(let reason)) = self { return reason }
        return nil
    }

    var isDeviceGone: Bool { deviceGonePath != nil }

    var deviceGonePath: String? {
        if case .condition(.deviceGone(let path)) = self { return path }
        return nil
    }
}

extension [FixSourceEvent] {
    var fixes: [Fix] {
        compactMap {
            if case .fix(let fix) = $0 { return fix }
            return nil
        }
    }
}
