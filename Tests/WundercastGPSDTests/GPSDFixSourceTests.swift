import Foundation
import Synchronization
import Testing
import WundercastCore
@testable import WundercastGPSD
import WundercastTestSupport

/// `GPSDFixSource` against a real gpsd started by gpsfake on a private port.
///
/// Serialized: each test runs its own gpsfake + gpsd, and the machine has two shared cores.
/// Every wait is bounded; a broken source fails a test instead of hanging it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct GPSDFixSourceTests {
    static let nl2008u = Fixtures.url("nmea/nl2008u.log")
    static let bt451 = Fixtures.url("nmea/bt451.log")

    /// Fixes arrive, lie on the replayed track (within its bounding box ± ~11 m), are 2D or
    /// better, and no two consecutive ones repeat one epoch.
    @Test(arguments: [nl2008u, bt451])
    func fixesLieOnTheTrackAndAreNotRepeated(_ log: URL) async throws {
        let track = try NMEATrack.load(log)
        let box = try #require(track.boundingBox)
        let gpsfake = try GPSFake(log: log, cycle: 0.02)
        defer { gpsfake.stop() }
        let session = Session(
            GPSDFixSource(port: gpsfake.port, initialBackoff: .milliseconds(50), maxBackoff: .milliseconds(200)))
        defer { session.cancel() }

        let arrived = await session.fixes.wait { $0.count >= 25 }
        let fixes = session.fixes.values
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

    /// A client that watches before gpsfake feeds sees the log's first fix; until gpsd is
    /// there it retries, logging the outage once.
    @Test func retriesUntilGpsdListensThenSeesTheFirstFix() async throws {
        let track = try NMEATrack.load(Self.nl2008u)
        let port = try GPSFake.freePort()
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: port, logger: Logger(sink: log, threshold: .debug),
                initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100)))
        defer { session.cancel() }

        #expect(await session.events.wait { $0.count(where: \.isConnectFailure) >= 3 })
        #expect(session.events.values.allSatisfy { $0.isConnectFailure })
        #expect(log.outageReports == 1, "an outage is logged once, its retries at debug level")

        let gpsfake = try GPSFake(log: Self.nl2008u, cycle: 0.1, port: port)
        defer { gpsfake.stop() }
        #expect(await session.fixes.wait { !$0.isEmpty }, "gpsfake said: \(gpsfake.output)")
        let first = try #require(session.fixes.values.first)
        let expected = try #require(track.positions.first)
        let distance = NMEATrack.haversine((first.coordinate.latitude, first.coordinate.longitude), expected)
        #expect(distance < 0.5, "first fix \(first) is \(distance) m from the log's first position")
        #expect(session.events.values.contains(.connected))
        #expect(log.outageReports == 1)
        await session.stop()
    }

    /// Ending the iteration sends WATCH disable, closes the socket and ends the thread.
    @Test func stoppingIterationClosesTheConnection() async throws {
        let gpsfake = try GPSFake(log: Self.nl2008u, cycle: 0.02)
        defer { gpsfake.stop() }
        let source = GPSDFixSource(port: gpsfake.port)
        let events = Recorder<GPSDFixSource.ConnectionEvent>()
        let stoppedAt = Mutex<ContinuousClock.Instant?>(nil)
        source.onConnectionChange = { event in
            if event == .stopped { stoppedAt.withLock { $0 = .now } }
            events.append(event)
        }
        let fixes = Recorder<Fix>()
        let leave = Atomic<Bool>(false)
        let brokeAt = Mutex<ContinuousClock.Instant?>(nil)
        let consumer = Task {
            for await case .fix(let fix) in source.events() {
                fixes.append(fix)
                if leave.load(ordering: .relaxed) {
                    brokeAt.withLock { $0 = .now }
                    break  // drops the iterator: the stream terminates
                }
            }
        }
        defer { consumer.cancel() }

        #expect(await fixes.wait { !$0.isEmpty }, "gpsfake said: \(gpsfake.output)")
        #expect(TCPTable.establishedConnections(toPort: gpsfake.port) == 1, "the source holds one connection")
        leave.store(true, ordering: .relaxed)
        await consumer.value

        #expect(await events.wait(.seconds(5)) { $0.last == .stopped })
        let broke = try #require(brokeAt.withLock { $0 })
        let stopped = try #require(stoppedAt.withLock { $0 })
        #expect(broke <= stopped, "the source stops after the consumer leaves, not before")
        #expect(await waitUntil(.seconds(5)) { TCPTable.establishedConnections(toPort: gpsfake.port) == 0 })
        let settled = fixes.values.count
        #expect(await !fixes.wait(.milliseconds(500)) { $0.count > settled }, "no fix after the stream ended")
    }

    /// gpsd goes away and another one starts on the same port: fixes resume on the same
    /// stream, without a new `fixes()` call; the outage is logged once.
    @Test func reconnectsWhenGpsdRestartsOnTheSamePort() async throws {
        let nl2008u = try #require(NMEATrack.load(Self.nl2008u).boundingBox)
        let bt451 = try #require(NMEATrack.load(Self.bt451).boundingBox)
        let first = try GPSFake(log: Self.nl2008u, cycle: 0.02)
        defer { first.stop() }
        let log = LogRecorder()
        let session = Session(
            GPSDFixSource(
                port: first.port, logger: Logger(sink: log, threshold: .debug),
                initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(200)))
        defer { session.cancel() }

        #expect(
            await session.fixes.wait { $0.contains { Self.contains(nl2008u, $0) } }, "gpsfake said: \(first.output)")
        first.stop()
        #expect(await session.events.wait { $0.contains(where: \.isDisconnect) })
        #expect(await session.events.wait { $0.count(where: \.isConnectFailure) >= 2 })
        #expect(log.outageReports == 1)

        let second = try GPSFake(log: Self.bt451, cycle: 0.02, port: first.port)
        defer { second.stop() }
        #expect(
            await session.fixes.wait { $0.contains { Self.contains(bt451, $0) } },
            "no fix from the second gpsd; events: \(session.events.values); gpsfake said: \(second.output)")
        #expect(session.events.values.count(where: { $0 == .connected }) == 2)
        #expect(log.outageReports == 1)
        #expect(log.contains(.info, "connected again"))
        await session.stop()
    }

    /// After the log ends gpsd reports `"activated":0`: the source logs it, and reports a
    /// disconnect only when gpsd itself goes (the line parsing is tested in the unit suite).
    @Test func deviceDeactivationKeepsTheConnection() async throws {
        let log = LogRecorder()
        let gpsfake = try GPSFake(log: Self.bt451, cycle: 0.01, once: true, linger: 3)
        defer { gpsfake.stop() }
        let session = Session(GPSDFixSource(port: gpsfake.port, logger: Logger(sink: log, threshold: .debug)))
        defer { session.cancel() }

        #expect(await waitUntil(.seconds(30)) { log.contains(.info, "deactivated") }, "gpsfake said: \(gpsfake.output)")
        #expect(!session.fixes.values.isEmpty)
        // No check of the connection at this point: gpsfake removes the device and then ends
        // its gpsd at once when no writer is left, racing any look at the socket.
        // gpsfake exits `linger` seconds after the end of the log: that is a disconnect.
        #expect(
            await session.events.wait { $0.contains(where: \.isDisconnect) },
            "running: \(gpsfake.isRunning), gpsd: \(gpsfake.gpsdProcesses); gpsfake said: \(gpsfake.output)")
        await session.stop()
    }

    // MARK: - Helpers

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
}

// MARK: - Test plumbing

/// One `fixes()` stream consumed by a task that records fixes, plus the source's events.
final class Session: Sendable {
    let fixes = Recorder<Fix>()
    let events = Recorder<GPSDFixSource.ConnectionEvent>()
    private let consumer: Task<Void, Never>

    init(_ source: GPSDFixSource) {
        let fixes = fixes
        let events = events
        source.onConnectionChange = { events.append($0) }
        consumer = Task {
            for await case .fix(let fix) in source.events() { fixes.append(fix) }
        }
    }

    /// Cancels the consumer (the stream terminates) and waits for the reader to report `.stopped`.
    func stop() async {
        consumer.cancel()
        await consumer.value
        #expect(await events.wait(.seconds(5)) { $0.last == .stopped }, "the reader thread did not stop")
    }

    /// For `defer`: cancel without waiting.
    func cancel() { consumer.cancel() }
}

/// Values appended from any thread, and a bounded wait for a condition on them.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }

    /// Whether `condition` held within `timeout` (checked every 10 ms).
    func wait(_ timeout: Duration = .seconds(30), until condition: @Sendable ([Value]) -> Bool) async -> Bool {
        await waitUntil(timeout) { condition(self.values) }
    }
}

/// Whether `condition` became true within `timeout`, checking every 10 ms.
func waitUntil(_ timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if condition() { return true }
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
}

/// Log entries, for checking what was logged and how often.
final class LogRecorder: LogSink {
    private let entries = Mutex<[(priority: LogPriority, message: String, fields: [(String, String)])]>([])

    func log(_ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int) {
        entries.withLock { $0.append((priority, message, fields)) }
    }

    /// Entries with `MESSAGE_ID` = ``MessageID/gpsdDisconnected``.
    var outageReports: Int {
        entries.withLock { $0.count { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.gpsdDisconnected) } } }
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

extension GPSDFixSource.ConnectionEvent {
    var isConnectFailure: Bool {
        if case .connectFailed = self { return true }
        return false
    }

    var isDisconnect: Bool {
        if case .disconnected = self { return true }
        return false
    }
}
