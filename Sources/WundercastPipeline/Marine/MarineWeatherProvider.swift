#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProviders

/// A weather provider with the sea state added (``Weather/marine``): after each answer of the
/// base provider for one place, the Marine API (``OpenMeteoMarineProvider``) is asked when the
/// ``MarineCellBook`` says so. Sits behind the ``ProviderQueue``, so the marine request takes the
/// same turn (one request at a time) and is counted with it (``RequestTally``).
///
/// A failed marine request does not fail the weather: the sea state is left out (never an old
/// one shown as new) and the failure logged. Lists of places (`around`) get no sea state: one
/// more request per refresh, only for the daemon's place and single lookups.
public final class MarineWeatherProvider: BatchWeatherProvider, Sendable {
    public let base: any WeatherProvider
    public let marine: OpenMeteoMarineProvider
    private let book: Mutex<MarineCellBook>
    private let uptime: @Sendable () -> Duration
    private let wallClock: @Sendable () -> Date
    private let logger: Logger

    /// - Parameters:
    ///   - uptime: the monotonic clock of the cell book's day (``Uptime/now()``).
    ///   - wallClock: the time an answer with hours only is read at.
    public init(
        _ base: any WeatherProvider, marine: OpenMeteoMarineProvider, mode: MarineMode,
        uptime: @escaping @Sendable () -> Duration = Uptime.now, wallClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = .discard
    ) {
        self.base = base
        self.marine = marine
        self.book = Mutex(MarineCellBook(mode: mode))
        self.uptime = uptime
        self.wallClock = wallClock
        self.logger = logger
    }

    public var name: String { base.name }
    public var secrets: Secrets { base.secrets }
    public var batchLimit: Int { (base as? any BatchWeatherProvider)?.batchLimit ?? 1 }

    /// The base provider's weather at `coordinate`, with ``Weather/marine`` when asked and answered
    /// with at least one value.
    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        var weather = try await base.currentWeather(at: coordinate)
        let cell = MarineCell(coordinate)
        guard book.withLock({ $0.shouldAsk(cell, at: uptime()) }) else { return weather }
        do throws(WeatherError) {
            let sea = try await marine.seaState(at: coordinate, now: wallClock())
            book.withLock { $0.answered(cell, land: sea.isEmpty, at: uptime()) }
            weather.marine = sea.isEmpty ? nil : sea
        } catch .cancelled {
            throw .cancelled
        } catch {
            // A named limit waits for the next hour (the API's windows are UTC minutes, hours, days).
            let wait = error.retryAfter ?? (error.limitWindow == nil ? nil : 3600)
            let quiet = book.withLock { $0.failed(retryAfter: wait, at: uptime()) }
            // The code only: the provider's text may echo the request's precise coordinates.
            let next =
                quiet.map { "not asked again for \($0.components.seconds) s" } ?? "asked again at the next refresh"
            logger.info("sea state not fetched (\(error.code)); \(next)")
        }
        return weather
    }

    /// The base provider's answers, without sea state (see the type).
    public func currentWeather(
        atEach coordinates: [Coordinate]
    ) async throws(WeatherError) -> [Result<Weather, WeatherError>] {
        if let batch = base as? any BatchWeatherProvider, coordinates.count > 1 {
            return try await batch.currentWeather(atEach: coordinates)
        }
        var results: [Result<Weather, WeatherError>] = []
        for coordinate in coordinates {
            do throws(WeatherError) {
                results.append(.success(try await base.currentWeather(at: coordinate)))
            } catch {
                if error == .cancelled { throw error }
                results.append(.failure(error))
            }
        }
        return results
    }
}
