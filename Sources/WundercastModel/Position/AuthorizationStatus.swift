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

    /// Whether fixes may flow (the book's `filter(authorized)`).
    public var isAuthorized: Bool { self == .authorizedAlways || self == .authorizedWhenInUse }

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
