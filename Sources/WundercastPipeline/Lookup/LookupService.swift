#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastPlaces
import WundercastFormats

/// One-off lookups for anywhere: `weather PLACE|LAT,LON` and `around` (the book's text search,
/// map search and `currentWeatherAround`). They never change the daemon's own state.
///
/// Every provider request goes through the daemon's ``ProviderQueue`` (one at a time, shared
/// with its own fetches) and a ``WeatherCache`` chosen by who asks (``Reader``):
/// - precise readers (root, the daemon's user, `PreciseGroup=`) use the daemon's cache: cells at
///   `Precision=`, cached for `MaxAge=`; a position already being fetched — by another precise
///   lookup or by the daemon itself — waits for that fetch;
/// - public readers get **public cells** only: the position rounded to `PublicPrecision=` (never
///   finer than `Precision=`), cached in a cache of their own and joined only with other public
///   lookups. Nothing of the daemon's fetches (its `fetchedAt`, an age, a cache hit, a join, a
///   cached answer served while the provider asks us to wait) reaches them, so probing cells
///   tells them nothing about the precise position.
///
/// `around` asks for the cells it does not have in one request when the provider can
/// (``BatchWeatherProvider``). Positions that need a request are limited per client user
/// (`LookupsPerMinute=`; each cell counts); while the provider has asked us to wait, they are
/// refused without a request (`provider-backoff`).
public final class LookupService: Sendable {
    public struct Settings: Sendable {
        /// Decimals of the positions sent to the provider (`[Weather] Precision=`).
        public var precision: Int
        /// The oldest stored answer a lookup is served (`[Throttle] MaxAge=`), passed with each
        /// cache lookup: the cache keeps no age of its own.
        public var maxAge: Duration
        /// Provider requests per user and minute (`[Socket] LookupsPerMinute=`).
        public var lookupsPerMinute: Int
        public init(precision: Int, maxAge: Duration, lookupsPerMinute: Int) {
            self.precision = precision
            self.maxAge = maxAge
            self.lookupsPerMinute = lookupsPerMinute
        }
    }

    /// Why a position has no weather: an `ERROR` code (ours or the provider's) and a message.
    public struct Failure: Error, Sendable, Equatable {
        public var code: String
        public var message: String
        init(_ code: SocketProtocol.ErrorCode, _ message: String) {
            self.code = code.rawValue
            self.message = message
        }
        init(_ error: WeatherError) {
            code = error.code
            message = error.message
        }
        var response: SocketProtocol.ErrorResponse { .init(providerCode: code, message: message) }
    }

    /// Who asks, as far as cells go: the socket's ``ReaderClass`` with `[Socket] PublicPrecision=`.
    public enum Reader: Sendable, Equatable {
        /// Root, the daemon's user, `PreciseGroup=` members: cells at `Precision=`, in the daemon's cache.
        case precise
        /// Everyone else: cells at `precision` decimals (`PublicPrecision=`; `Precision=` when that
        /// is finer), in the public cache only.
        case `public`(precision: Int)
    }

    private struct State {
        var limit: UserRequestLimit
        var answered = 0
    }

    private let queue: ProviderQueue
    private let cache: WeatherCache
    /// Public readers' cells only: never the daemon's fetches nor precise readers' lookups.
    private let publicCache: WeatherCache
    private let places: PlaceFinder
    private let settings: Settings
    private let wallClock: @Sendable () -> Date
    /// The caches' monotonic clock; an answer's age counts by it.
    private let uptime: @Sendable () -> Duration
    private let state: Mutex<State>

    /// - Parameters:
    ///   - cache: the daemon's weather cache, whose provider is `queue`, for precise readers; without
    ///     one, a cache of the lookups' own (`settings.precision`, `settings.maxAge`).
    ///   - uptime: the monotonic clock of the TTL of the caches made here (the public readers' one
    ///     always); by default the wall clock (tests that move it).
    ///   - logger: the debug lines of the caches made here.
    public init(
        queue: ProviderQueue, cache: WeatherCache? = nil, places: PlaceFinder, settings: Settings,
        uptime: (@Sendable () -> Duration)? = nil, wallClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = .discard
    ) {
        let uptime = uptime ?? { .seconds(wallClock().timeIntervalSince1970) }
        self.queue = queue
        self.cache =
            cache
            ?? WeatherCache(
                provider: queue, precision: settings.precision, uptime: uptime,
                wallClock: wallClock, logger: logger)
        // Keys are positions already rounded to the public cell (see `cell(for:)`).
        publicCache = WeatherCache(
            provider: queue, precision: settings.precision, uptime: uptime,
            wallClock: wallClock, logger: logger)
        self.places = places
        self.settings = settings
        self.wallClock = wallClock
        self.uptime = uptime
        state = Mutex(State(limit: UserRequestLimit(perMinute: settings.lookupsPerMinute)))
    }

    /// Lookups answered since start (from the cache or the provider).
    public var answered: Int { state.withLock { $0.answered } }

    /// `weather PLACE|LAT,LON` for client user `user` of class `reader`: the response line, a
    /// `WEATHER` object (`status` `fresh`, `location.source` `lookup`, `location` the cell asked
    /// for — rounded to the reader's cell — with the place found or the city nearest that cell) or
    /// an `ERROR` (`no-such-place`, `geocoding-unavailable`, `rate-limited`, `provider-backoff`,
    /// or the provider's `http-NNN`, `transport`, `decoding`).
    public func weather(_ query: SocketProtocol.PlaceQuery, user: UInt32, reader: Reader) async -> [UInt8] {
        let cell = cell(for: reader)
        let target: (Coordinate, WeatherState.Place?, alternatives: [WeatherState.Alternative])
        switch await locate(query, decimals: cell.decimals) {
        case .success(let found): target = found
        case .failure(let failure): return SocketProtocol.line(failure.response)
        }
        let position = target.0.rounded(toDecimals: cell.decimals)
        switch await weather(atEach: [position], user: user, in: cell.cache)[0] {
        case .failure(let failure):
            return SocketProtocol.line(failure.response)
        case .success(let (weather, fetchedAt, sinceArrival)):
            var answer = WeatherState(status: .fresh, provider: queue.name)
            var location = WeatherState.Location(
                latitude: position.latitude, longitude: position.longitude, source: .lookup)
            location.place = target.1
            location.alternatives = target.alternatives.isEmpty ? nil : target.alternatives
            answer.location = location
            answer.weather = weather
            answer.fetchedAt = fetchedAt
            // The age counts by the monotonic clock: a wall clock step does not change it.
            let now = uptime()
            answer.fetchedUptime = now - sinceArrival
            return SocketProtocol.line(answer.stamped(now: wallClock(), uptime: now))
        }
    }

    /// `around [PLACE|LAT,LON] [STEP]` for `user` of class `reader`: an `AROUND` object with nine
    /// cells, each rounded to the reader's cell (for a public reader several may be the same
    /// one) with its weather or error, or an `ERROR` when the centre cannot be found. `current`
    /// is the daemon's position as this reader may see it (rounded for public readers), used
    /// when no centre is given.
    public func around(
        _ center: SocketProtocol.PlaceQuery?, step: Double, current: Coordinate?, user: UInt32, reader: Reader
    ) async -> [UInt8] {
        let cell = cell(for: reader)
        let middle: Coordinate
        if let center {
            switch await locate(center, decimals: cell.decimals) {
            case .success(let found): middle = found.0
            case .failure(let failure): return SocketProtocol.line(failure.response)
            }
        } else if let current {
            middle = current
        } else {
            return SocketProtocol.line(
                SocketProtocol.ErrorResponse(
                    .noLocation, message: "the daemon has no position yet: give one (around PLACE or around LAT,LON)"))
        }
        // Around the daemon's own position a public reader is told names only, as in its state
        // (`near Munich`): the same rule as StateViews, never a distance or bearing.
        let place: (Coordinate) -> WeatherState.Place? =
            center == nil && reader != .precise
            ? { [places] in places.inCell($0, cell.decimals) } : { [places] in places.nearest($0) }
        let grid = Self.grid(around: middle, step: step).map { $0.rounded(toDecimals: cell.decimals) }
        let answers = await weather(atEach: grid, user: user, in: cell.cache)
        let cells = zip(grid, answers).map { position, answer in
            var cell = SocketProtocol.AroundResponse.Cell(
                latitude: position.latitude, longitude: position.longitude, place: place(position))
            switch answer {
            case .success(let (weather, _, _)):
                // A cell is the current weather there; nine forecasts would bloat the line.
                cell.weather = weather
                cell.weather?.forecast = nil
            case .failure(let failure): cell.error = .init(code: failure.code, message: failure.message)
            }
            return cell
        }
        let shown = middle.rounded(toDecimals: cell.decimals)
        let centre = SocketProtocol.AroundResponse.Cell(
            latitude: shown.latitude, longitude: shown.longitude, place: place(shown))
        return SocketProtocol.line(SocketProtocol.AroundResponse(center: centre, step: step, cells: cells))
    }

    /// Nine positions `step` degrees apart, row by row from north-west to south-east; latitudes
    /// clamped to ±90, longitudes wrapped into -180...180.
    public static func grid(around center: Coordinate, step: Double) -> [Coordinate] {
        var cells: [Coordinate] = []
        for row in [1.0, 0, -1] {
            for column in [-1.0, 0, 1] {
                let latitude = min(90, max(-90, center.latitude + row * step))
                var longitude = center.longitude + column * step
                if longitude > 180 { longitude -= 360 }
                if longitude < -180 { longitude += 360 }
                cells.append(Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        return cells
    }

    /// The decimals of `reader`'s cells and the cache that may serve them: the one rule that keeps
    /// public readers away from the daemon's fetches, whatever the two precisions are.
    private func cell(for reader: Reader) -> (decimals: Int, cache: WeatherCache) {
        switch reader {
        case .precise: (settings.precision, cache)
        case .public(let precision): (min(max(0, precision), settings.precision), publicCache)
        }
    }

    /// The coordinate of `query` and its place: the one found for a name (with the other places
    /// of that name), else the city nearest the coordinate rounded to `decimals` (the cell the
    /// answer shows).
    private func locate(
        _ query: SocketProtocol.PlaceQuery, decimals: Int
    ) async -> Result<(Coordinate, WeatherState.Place?, alternatives: [WeatherState.Alternative]), Failure> {
        switch query {
        case .coordinate(let coordinate):
            return .success((coordinate, places.nearest(coordinate.rounded(toDecimals: decimals)), []))
        case .name(let name):
            switch await places.resolve(name) {
            case .found(let coordinate, let place, let alternatives): return .success((coordinate, place, alternatives))
            case .notFound(let message): return .failure(Failure(.noSuchPlace, message))
            case .unavailable(let message): return .failure(Failure(.geocodingUnavailable, message))
            }
        }
    }

    /// The weather at each already rounded position, through `cache`: stored, joined to a fetch
    /// in flight, or fetched (together when the provider can) for the positions `user` has room
    /// for while the provider does not ask us to wait.
    private func weather(
        atEach positions: [Coordinate], user: UInt32, in cache: WeatherCache
    ) async -> [Result<(Weather, Date, Duration), Failure>] {
        let now = wallClock()
        let blocked = queue.blockedUntil
        let outcomes = await cache.weather(atEach: positions, maxAge: settings.maxAge) { () -> Failure? in
            if let blocked {
                let wait = HumanFormat.spanText(Int(blocked.timeIntervalSince(now).rounded(.up)))
                return Failure(.providerBackoff, "the provider asked not to be asked again for \(wait)")
            }
            guard state.withLock({ $0.limit.take(for: user, now: now) }) else {
                return Failure(
                    .rateLimited,
                    "more than \(settings.lookupsPerMinute) lookups a minute from this user; try again in a minute")
            }
            return nil
        }
        let results = outcomes.map { outcome -> Result<(Weather, Date, Duration), Failure> in
            switch outcome {
            case .weather(let answer): .success((answer.weather, answer.fetchedAt, answer.sinceArrival))
            case .failure(let error): .failure(Failure(error))
            case .refused(let failure): .failure(failure)
            }
        }
        let answered = results.filter { if case .success = $0 { true } else { false } }.count
        state.withLock { $0.answered += answered }
        return results
    }
}
