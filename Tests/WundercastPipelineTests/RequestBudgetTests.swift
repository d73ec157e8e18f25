import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastConfiguration
import WundercastPipeline
import WundercastTestSupport

/// The request budget of README ("Request budget"), measured: real recorded tracks replayed
/// through the refresh rules (``RefreshStateMachine``) and the ``WeatherCache`` with the default
/// settings, counting the refreshes the rules ask for and the requests that reach the provider.
@Suite struct RequestBudgetTests {
    /// A fix of an NMEA `RMC` sentence: seconds since 1970 (UTC, from its date and time) and position.
    struct TrackFix {
        var time: Double
        var latitude: Double
        var longitude: Double
    }

    /// The valid (`A`) `RMC` fixes of an NMEA log, in order.
    static func fixes(_ path: String) throws -> [TrackFix] {
        let text = String(decoding: try Fixtures.bytes(path), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).compactMap { line -> TrackFix? in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 9, f[0].hasSuffix("RMC"), f[2] == "A", f[1].count >= 6, f[9].count == 6,
                let hms = Double(f[1]), let dmy = Int(f[9]),
                let lat = Double(f[3]), let lon = Double(f[5])
            else { return nil }
            guard let date = CivilDate(year: 2000 + dmy % 100, month: dmy / 100 % 100, day: dmy / 10000) else {
                return nil
            }
            let days = date.daysSince1970
            let seconds =
                Double(Int(hms) / 10000 * 3600 + Int(hms) / 100 % 100 * 60) + hms.truncatingRemainder(dividingBy: 100)
            func degrees(_ value: Double, _ hemisphere: String, negative: String) -> Double {
                let d = (value / 100).rounded(.down) + value.truncatingRemainder(dividingBy: 100) / 60
                return hemisphere == negative ? -d : d
            }
            return TrackFix(
                time: Double(days) * 86_400 + seconds, latitude: degrees(lat, f[4], negative: "S"),
                longitude: degrees(lon, f[6], negative: "W"))
        }
    }

    /// A provider that answers at once and counts.
    final class CountingProvider: WeatherProvider {
        let name = "counting"
        let secrets = Secrets.none
        private let count = Mutex(0)
        var requests: Int { count.withLock { $0 } }
        func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
            count.withLock { $0 += 1 }
            return makeWeather(0)
        }
    }

    struct Budget {
        var hours: Double
        var kilometres: Double
        var refreshes: Int
        var requests: Int
    }

    /// Replays `fixes` (then `quietHours` without a fix) through the machine and the cache with
    /// the defaults of `[Throttle]` and `Precision=`. Time is the track's, never going backwards
    /// (the daemon's clock is monotonic; one track steps back 3 s). `wrap` puts a provider in front
    /// of the counting one, given the replay's monotonic clock (the sea state's).
    static func replay(
        _ fixes: [TrackFix], quietHours: Double = 0,
        wrap: (any WeatherProvider, @escaping @Sendable () -> Duration) -> any WeatherProvider = { p, _ in p }
    ) async throws -> Budget {
        let defaults = Configuration()
        var machine = RefreshStateMachine<ManualClock.Instant>(policy: ThrottlePolicy(defaults.throttle))
        let provider = CountingProvider()
        let now = Mutex(Duration.zero)
        let cache = WeatherCache(
            provider: wrap(provider, { now.withLock { $0 } }), precision: defaults.weather.precision,
            uptime: { now.withLock { $0 } })
        let start = try #require(fixes.first?.time)
        var refreshes = 0
        var kilometres = 0.0
        func perform(_ action: RefreshStateMachine<ManualClock.Instant>.Action?, at instant: ManualClock.Instant) async
        {
            guard case .fetch(let id, let position, _, _) = action else { return }
            refreshes += 1
            now.withLock { $0 = instant.offset }
            let answer = try? await cache.weather(at: position.coordinate, maxAge: machine.policy.maxAge)
            let requestedAt = answer.map { instant.advanced(by: .zero - $0.age) }
            _ = machine.fetchEnded(
                id: id, .success, at: instant, wallNow: Date(timeIntervalSince1970: 0), requestedAt: requestedAt)
        }
        var clock = ManualClock.Instant(offset: .zero)
        var previous: TrackFix?
        for fix in fixes + [
            TrackFix(time: (fixes.last?.time ?? start) + quietHours * 3600, latitude: .nan, longitude: .nan)
        ] {
            let instant = max(clock, ManualClock.Instant(offset: .seconds(fix.time - start)))
            while let deadline = machine.deadline, deadline <= instant {
                await perform(machine.tick(at: deadline), at: deadline)
            }
            clock = instant
            guard fix.latitude.isFinite else { break }
            if let previous {
                kilometres +=
                    NMEATrack.haversine((previous.latitude, previous.longitude), (fix.latitude, fix.longitude)) / 1000
            }
            previous = fix
            await perform(machine.offer(Position(makeFix(fix.latitude, fix.longitude)), at: instant), at: instant)
        }
        let seconds = Double(clock.offset.components.seconds)
        return Budget(hours: seconds / 3600, kilometres: kilometres, refreshes: refreshes, requests: provider.requests)
    }

    /// Stationary: exactly one request per `MaxAge` (4 an hour by default); the cache saves none
    /// of them, so the weather shown is never older than `MaxAge`.
    @Test func aStationaryReceiverMakesOneRequestPerMaxAge() async throws {
        let fix = TrackFix(time: 1_764_583_200, latitude: 69.6496, longitude: 18.9553)
        let budget = try await Self.replay([fix], quietHours: 24)
        #expect(budget.refreshes == 1 + 24 * 4)
        #expect(budget.requests == budget.refreshes)
    }

    /// Moving: never more than one refresh per `MinInterval` (30 an hour), fewer requests with
    /// the cache when a refresh stays in the rounding cell or comes back to one fetched within `MaxAge`.
    @Test(arguments: [
        "nmea/car_regensburg_garmin-geko_2010-04-11_26min.nmea", "nmea/kayak_tomales-bay_2018-08-20_2h13.nmea",
    ])
    func aMovingReceiverStaysWithinMinInterval(track: String) async throws {
        let fixes = try Self.fixes(track)
        #expect(fixes.count > 100)
        let budget = try await Self.replay(fixes)
        let perHour = Double(budget.refreshes) / budget.hours
        #expect(Double(budget.refreshes - 1) <= budget.hours * 30)
        #expect(budget.requests <= budget.refreshes)
        print(
            "request budget: \(track): \(Int((budget.hours * 60).rounded())) min, \(Int(budget.kilometres.rounded())) km:",
            "\(budget.refreshes) refreshes (\((perHour * 10).rounded() / 10) an hour), \(budget.requests) requests")
    }
}
