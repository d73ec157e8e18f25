import WundercastSupport
import WundercastModel

/// What lookups need to know about places, from the city table and geocoding (`Places/`).
public struct PlaceFinder: Sendable {
    /// How a name was resolved.
    public enum Resolution: Sendable, Equatable {
        /// The place and its coordinate (degrees), and the other places the name matches as well,
        /// best first (``WeatherState/Alternative``; empty when the name is not ambiguous).
        case found(Coordinate, WeatherState.Place, alternatives: [WeatherState.Alternative] = [])
        /// No place of that name; `message` names it.
        case notFound(message: String)
        /// The name could not be looked up (online geocoding off or failing); `message` says why.
        case unavailable(message: String)
    }

    /// The nearest city to a coordinate, with distance and bearing (``CityTable/place(near:)``).
    public var nearest: @Sendable (Coordinate) -> WeatherState.Place?
    /// The city named for a position rounded to `decimals` decimals, without distance and
    /// bearing (``CityTable/place(inCell:decimals:)``): what a reader of rounded positions is told.
    public var inCell: @Sendable (Coordinate, _ decimals: Int) -> WeatherState.Place?
    /// Resolves a place name (offline first); may wait on the network.
    public var resolve: @Sendable (String) async -> Resolution

    public init(
        nearest: @escaping @Sendable (Coordinate) -> WeatherState.Place?,
        inCell: @escaping @Sendable (Coordinate, Int) -> WeatherState.Place?,
        resolve: @escaping @Sendable (String) async -> Resolution
    ) {
        self.nearest = nearest
        self.inCell = inCell
        self.resolve = resolve
    }

    /// No city table: no place names; every name is unknown.
    public static let none = PlaceFinder(
        nearest: { _ in nil }, inCell: { _, _ in nil },
        resolve: { name in
            .unavailable(message: "cannot look up '\(UntrustedText.sanitized(name, limit: 60))': no city table")
        })
}
