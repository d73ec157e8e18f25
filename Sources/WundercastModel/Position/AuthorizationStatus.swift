/// Whether the daemon may use the GPS, named after Core Location's `CLAuthorizationStatus`.
/// Config `[Location] Authorization=`: `always`, `when-in-use`, `denied`, `ask`.
public enum AuthorizationStatus: String, Sendable, Codable, CaseIterable {
    /// Nobody has decided yet (config `ask`): no GPS until an administrator decides.
    case notDetermined
    /// GPS is never opened; weather is served for the fallback place, if any.
    case denied
    /// gpsd is watched only while someone uses the location.
    case authorizedWhenInUse
    /// gpsd is watched for as long as the daemon runs.
    case authorizedAlways

    /// The one gate: whether a position from `source` may be used, shown and kept under this
    /// status. GPS fixes (`gpsd`) flow only while GPS use is authorized (the book's
    /// `filter(authorized)`); the fallback place stands in only while it is not; a place a
    /// one-off `weather` request named is no position of the machine and always allowed; an
    /// unrecognized source never. Under `ask` no position is had at all: the pipeline closes
    /// the gate with `not-determined` (and under `denied` without a fallback with `denied`).
    public func allows(source: WeatherState.Location.Source) -> Bool {
        let gpsAuthorized = self == .authorizedAlways || self == .authorizedWhenInUse
        return switch source {
        case .gpsd: gpsAuthorized
        case .fallback: !gpsAuthorized
        case .lookup: true
        case .unrecognized: false
        }
    }

    /// The configuration spelling: `always`, `when-in-use`, `denied`, `ask`.
    public var configName: String {
        switch self {
        case .notDetermined: "ask"
        case .denied: "denied"
        case .authorizedWhenInUse: "when-in-use"
        case .authorizedAlways: "always"
        }
    }

    /// Parses the configuration spelling (see ``configName``); `nil` for anything else.
    public init?(configName: String) {
        guard let match = Self.allCases.first(where: { $0.configName == configName }) else { return nil }
        self = match
    }
}
