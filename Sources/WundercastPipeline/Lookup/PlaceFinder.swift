import WundercastSupport
import WundercastModel

/// What lookups need to know about places, from the city table and geocoding (`Places/`).
public struct PlaceFinder: Sendable {
    /// How a name was resolved.
    public enum Resolution: Sendable, Equatable {
        /// The place and its coordinate (degrees).
        case found(Coordinate, WeatherState.Place)
        /// No place of that name; `message` names it.
        case notFound(message: String)
        /// The name could not be looked up (online geocoding off or failing); `message` says why.
        case unavailable(message: String)
    }

    /// The nearest city to a coordinate, with distance and bearing (whole km when asked).
    public var nearest: @Sendable (Coordinate, _ wholeKilometres: Bool) -> WeatherState.Place?
    /// Resolves a place name (offline first); may wait on the network.
    public var resolve: @Sendable (String) async -> Resolution

    public init(
        nearest: @escaping @Sendable (Coordinate, Bool) -> WeatherState.Place?,
        resolve: @escaping @Sendable (String) async -> Resolution
    ) {
        self.nearest = nearest
        self.resolve = resolve
    }

    /// No city table: no place names; every name is unknown.
    public static let none = PlaceFinder(
        nearest: { _, _ in nil },
        resolve: { name in
            .unavailable(message: "cannot look up '\(UntrustedText.sanitized(name, limit: 60))': no city table")
        })
}
