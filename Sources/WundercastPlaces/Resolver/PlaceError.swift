import WundercastSupport

/// Why a place name could not be resolved. The name in it is the user's text; ``message``
/// sanitises and bounds it (``UntrustedText/sanitized(_:limit:)``), as it does the service's.
public enum PlaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No place of that name: not in the city table, nor online (when online geocoding is on).
    case noSuchPlace(name: String)
    /// The name is not in the city table and could not be looked up online: online geocoding
    /// failed (`reason` names what: `HTTP 503`, `transfer failed (curl 7): …`,
    /// `bad response body: …`).
    case geocodingUnavailable(name: String, reason: String)
    /// The city table exists but cannot be read now (its file was changed and is not a valid
    /// table); the name is not sent online meanwhile.
    case tableUnavailable(name: String)

    /// One line naming the place, e.g. `no place named "Atlantis"`,
    /// `cannot look up "Atlantis" online: HTTP 503`. At most about 300 characters, no control characters.
    public var message: String {
        switch self {
        case .noSuchPlace(let name): "no place named \(Self.quoted(name))"
        case .geocodingUnavailable(let name, let reason):
            "cannot look up \(Self.quoted(name)) online: \(UntrustedText.sanitized(reason))"
        case .tableUnavailable(let name):
            "cannot look up \(Self.quoted(name)): the city table cannot be read now (the log says why)"
        }
    }

    public var description: String { message }

    /// The place's name as given, sanitised, bounded and quoted.
    static func quoted(_ name: String) -> String {
        "\"" + UntrustedText.sanitized(name, limit: 100) + "\""
    }
}
