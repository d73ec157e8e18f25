import Foundation
import Synchronization
import Testing
import WundercastModel
import WundercastPipeline
import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastServer

/// When the age of weather kept from before a restart becomes known: once the clock-sync file
/// appears or a GPS fix's time agrees with the clock — and only if that weather was fetched by
/// a synchronised clock.
@Suite(.timeLimit(.minutes(1))) struct ClockSyncTests {
    /// Reads the clock-sync file's inotify descriptor (the daemon's reactor in production).
    static let loop = try! EventLoop(name: "test-clocksync")

    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
    /// The kernel's answer when the clock is not synchronised (`adjtimex`'s `TIME_ERROR`).
    static let unsynchronized: @Sendable () -> Int32? = { KernelClock.timeError }
    static let received = Date(timeIntervalSince1970: 1_800_003_600)

    static func restoredStore() -> StateStore {
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        store.restore(
            makeWeather(3), fetchedAt: fetchedAt,
            location: .init(latitude: 48.12, longitude: 11.57, source: .gpsd), ageKnown: false)
        return store
    }

    /// A state with a current GPS fix whose own time is `offset` seconds from when it arrived.
    static func gpsState(
        timeOffset offset: TimeInterval, source: WeatherState.Location.Source = .gpsd, current: Bool = true
    )
        -> WeatherState
    {
        var state = WeatherState(status: .fresh, provider: "open-meteo", authorization: .authorizedAlways)
        var location = WeatherState.Location(
            latitude: 48.12, longitude: 11.57, mode: 3, source: source, time: received + offset, receivedAt: received)
        location.status = current ? .current : .lastKnown
        state.location = location
        return state
    }

    @Test func gpsTimeConfirmsTheClockOnlyWhenTheyAgree() {
        #expect(ClockSync.confirms(Self.gpsState(timeOffset: 0.4)))
        #expect(ClockSync.confirms(Self.gpsState(timeOffset: -29)))
        #expect(!ClockSync.confirms(Self.gpsState(timeOffset: 31)))
        // gpsd 3.22's week rollover: a replayed 2010 log arrives 1024 weeks later.
        #expect(!ClockSync.confirms(Self.gpsState(timeOffset: 1024 * 7 * 86_400)))
        #expect(!ClockSync.confirms(Self.gpsState(timeOffset: 0, source: .fallback)))
        #expect(!ClockSync.confirms(Self.gpsState(timeOffset: 0, current: false)))
        var noTime = Self.gpsState(timeOffset: 0)
        noTime.location?.time = nil
        #expect(!ClockSync.confirms(noTime))
    }

    @Test func noClockSyncFileMeansTheClockIsTrusted() {
        #expect(ClockSync(file: nil).isSynchronized)
        #expect(
            !ClockSync(file: "/nonexistent/wundercast/synchronized", kernelState: Self.unsynchronized).isSynchronized)
    }

    /// Issue 14: with chrony or ntpd there is no clock-sync file; the kernel's `TIME_OK`
    /// (`adjtimex`, what `timedatectl` reads) is enough. Only `TIME_OK` counts.
    @Test func theKernelsTimeOKMeansSynchronised() {
        let file = "/nonexistent/wundercast/synchronized"
        #expect(ClockSync(file: file, kernelState: { KernelClock.timeOK }).isSynchronized)
        // TIME_ERROR, TIME_INS, TIME_OOP, TIME_WAIT
        for state: Int32 in [KernelClock.timeError, 1, 3, 4] {
            #expect(!ClockSync(file: file, kernelState: { state }).isSynchronized, "state \(state)")
        }
        #expect(!ClockSync(file: file, kernelState: { nil }).isSynchronized, "adjtimex failed")
        // Read only: asking twice gives the machine's unchanged state.
        #expect(KernelClock.state() == KernelClock.state())
    }

    @Test func theKernelReportingTimeOKMakesTheAgeKnown() async throws {
        let answer = Mutex<Int32?>(KernelClock.timeError)
        let clock = ClockSync(file: "/nonexistent/wundercast/synchronized", kernelState: { answer.withLock { $0 } })
        let store = Self.restoredStore()
        let asked = AsyncStream<Void>.makeStream()
        let ticks = AsyncStream<Void>.makeStream()
        var watch = ClockSyncWatch(
            store: store, clock: clock, restoredAgeTrusted: true, loop: Self.loop, logger: .discard)
        // Each pause between two questions ends when the test says so.
        watch.sleeper = { _ in
            asked.continuation.yield()
            for await _ in ticks.stream { return }
            throw CancellationError()
        }
        let task = Task { [watch] in await watch.run() }
        var questions = asked.stream.makeAsyncIterator()
        _ = await questions.next()  // it asked and was told "not synchronised"
        #expect(store.current.ageUnknown == true)
        answer.withLock { $0 = KernelClock.timeOK }
        ticks.continuation.yield()
        let known = try #require(await store.waitFor { $0.ageUnknown == nil })
        #expect(known.stamped(now: Self.fetchedAt + 90).ageSeconds == 90)
        task.cancel()
        await task.value
        #expect(clock.isSynchronized)
    }

    @Test func theClockSyncFileAppearingMakesTheAgeKnown() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let flag = directory + "/timesync/synchronized"
        let clock = ClockSync(file: flag, kernelState: Self.unsynchronized)
        let store = Self.restoredStore()
        let watch = ClockSyncWatch(
            store: store, clock: clock, restoredAgeTrusted: true, loop: Self.loop, logger: .discard)
        let task = Task { await watch.run() }
        #expect(store.current.ageUnknown == true)
        #expect(mkdir(directory + "/timesync", 0o755) == 0)
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        let known = try #require(await store.waitFor { $0.ageUnknown == nil })
        #expect(known.stamped(now: Self.fetchedAt + 90).ageSeconds == 90)
        // Its work is done; like every service it ends when cancelled (the daemon's stop).
        task.cancel()
        await task.value
        #expect(clock.isSynchronized)
    }

    @Test func anAgreeingGPSFixMakesTheAgeKnown() async throws {
        let clock = ClockSync(file: "/nonexistent/wundercast/synchronized", kernelState: Self.unsynchronized)
        let store = Self.restoredStore()
        let task = Task {
            await ClockSyncWatch(
                store: store, clock: clock, restoredAgeTrusted: true, loop: Self.loop, logger: .discard
            ).run()
        }
        let now = Date()
        store.publishPosition(
            Position(
                Fix(coordinate: Coordinate(latitude: 48.1201, longitude: 11.5702), mode: .threeD, time: now)),
            rounded: Coordinate(latitude: 48.12, longitude: 11.57), receivedAt: now)
        _ = try #require(await store.waitFor { $0.ageUnknown == nil })
        task.cancel()
        await task.value
        #expect(clock.isSynchronized)
    }

    /// Weather fetched while the clock was wrong keeps an unknown age even once it is right.
    @Test func weatherFetchedByAWrongClockKeepsAnUnknownAge() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let flag = directory + "/synchronized"
        let clock = ClockSync(file: flag, kernelState: Self.unsynchronized)
        let store = Self.restoredStore()
        let watch = ClockSyncWatch(
            store: store, clock: clock, restoredAgeTrusted: false, loop: Self.loop, logger: .discard)
        let task = Task { await watch.run() }
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        for await done in watch.done.values() where done { break }  // the clock is taken as synchronised
        task.cancel()
        await task.value
        #expect(clock.isSynchronized)
        #expect(store.current.ageUnknown == true)
    }
}
