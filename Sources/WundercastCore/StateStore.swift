#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns the published ``WeatherState``: the current value, replayed to every new reader,
/// and each change after it. All writers go through the transitions below, so the rules
/// (failures never replace good weather, …) live in one place.
public final class StateStore: Sendable {
    private let subject: ObservableValue<WeatherState>

    public init(provider: String, authorization: AuthorizationStatus) {
        subject = ObservableValue(WeatherState(status: .noLocation, provider: provider, authorization: authorization))
    }

    /// The current state (without `ageSeconds`; see ``WeatherState/stamped(now:)``).
    public var current: WeatherState { subject.value }

    /// The current state, then each change.
    public func states() -> AsyncStream<WeatherState> { subject.values() }

    /// Ends every reader's stream (shutdown).
    public func finish() { subject.finish() }

    /// A new position is being used: published rounded to the request precision, with the
    /// status `fetching` (any weather kept; a `stale` state stays `stale`, its error still holds).
    func publishPosition(_ position: Position, rounded: Coordinate, receivedAt: Date) {
        subject.updateIfChanged { s in
            var location = WeatherState.Location(
                latitude: rounded.latitude, longitude: rounded.longitude, source: "gpsd", receivedAt: receivedAt)
            switch position.source {
            case .gps(let fix):
                location.mode = fix.mode.rawValue
                location.time = fix.time
                location.eph = fix.horizontalError
            case .fallback(let name):
                location.source = "fallback"
                location.name = name
            }
            s.location = location
            if s.status != .stale { s.status = .fetching }
        }
    }

    /// A fetch succeeded: `fresh`, error cleared.
    func publishWeather(_ weather: Weather, fetchedAt: Date) {
        subject.update { s in
            s.weather = weather
            s.fetchedAt = fetchedAt
            s.status = .fresh
            s.error = nil
        }
    }

    /// A fetch failed: the last good weather stays; `stale` if there is one, else
    /// `offline` (transfer failed) or `error` (the provider answered badly).
    func publishFailure(_ error: WeatherError) {
        subject.updateIfChanged { s in
            if s.weather != nil {
                s.status = .stale
            } else if case .transport = error {
                s.status = .offline
            } else {
                s.status = .error
            }
            s.error = WeatherState.ErrorInfo(code: error.code, message: error.message)
        }
    }

    /// No position can be had (not authorized, no fallback, or no fix in time).
    public func publishNoLocation(reason: WeatherState.ErrorInfo?) {
        subject.updateIfChanged { s in
            if s.weather == nil { s.status = .noLocation }
            s.error = reason
        }
    }

    /// Fetching stopped for good (GPS denied without a usable fallback, or not decided):
    /// weather that is kept is `stale` from now on (it will not be refreshed), else `noLocation`.
    public func publishStopped(reason: WeatherState.ErrorInfo) {
        subject.updateIfChanged { s in
            s.status = s.weather == nil ? .noLocation : .stale
            s.error = reason
        }
    }

    /// The location source could not be reached (`problem`), or was reached again (`nil`).
    /// Shown only while there is no position yet, so that `now` says why there is none; a
    /// problem with code `gpsd` is cleared when the source is back.
    public func publishSourceProblem(_ problem: WeatherState.ErrorInfo?) {
        subject.updateIfChanged { s in
            guard s.status == .noLocation else { return }
            if let problem {
                s.error = problem
            } else if s.error?.code == "gpsd" {
                s.error = nil
            }
        }
    }

    /// The authorization status changed.
    public func publishAuthorization(_ status: AuthorizationStatus) {
        subject.updateIfChanged { $0.authorization = status }
    }
}
