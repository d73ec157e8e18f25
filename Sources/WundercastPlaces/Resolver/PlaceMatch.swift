import WundercastModel

/// What a place name resolved to (``PlaceResolver/match(_:)``): the best place, and the other
/// places of the same name that the query matches as well (`Springfield`: the one in Missouri,
/// and the Springfields of Massachusetts, Illinois, …), best first, at most ``limit``; empty
/// when the name is not ambiguous.
public struct PlaceMatch: Sendable, Equatable {
    /// Alternatives kept at most (``WundercastModel/WeatherState/Alternative/limit``).
    public static let limit = WeatherState.Alternative.limit

    public var city: City
    public var alternatives: [City]

    public init(city: City, alternatives: [City] = []) {
        self.city = city
        self.alternatives = Array(alternatives.prefix(Self.limit))
    }

    /// The online geocoder's first result `city` and, of the results after it (`others`, which
    /// every qualifier matched), those of the same name (compared folded), in the service's order.
    init(online city: City, among others: ArraySlice<City>) {
        let name = NameFolding.fold(city.name)
        self.init(city: city, alternatives: others.filter { NameFolding.fold($0.name) == name })
    }
}

extension City {
    /// The city as another place a name matches (``WeatherState/Alternative``); an unknown
    /// population (0) is left out.
    public var alternative: WeatherState.Alternative {
        WeatherState.Alternative(
            name: name, region: region, country: country, latitude: coordinate.latitude,
            longitude: coordinate.longitude, population: population > 0 ? population : nil)
    }
}
