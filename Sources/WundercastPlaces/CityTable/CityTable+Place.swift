#if canImport(Glibc)
import Glibc
#endif
import WundercastModel

extension CityTable {
    /// The city nearest to `coordinate` (great-circle distance), through the k-d index: some
    /// tens of cities are looked at, not all. Nil only for an empty table.
    public func nearest(to coordinate: Coordinate) -> City? {
        nearestIndex(to: coordinate).map(city(at:))
    }

    func nearestIndex(to coordinate: Coordinate) -> Int? {
        NearestCityIndex.nearest(to: NearestCityIndex.point(coordinate), count: count) {
            NearestCityIndex.point(latitude: latitudes[$0], longitude: longitudes[$0])
        }
    }

    /// The state's place for a position: the nearest city (``nearest(to:)``) with its region,
    /// ISO country code and time zone, the `distance` in metres from the city to `coordinate`
    /// and the 8-point compass `bearing` from the city to `coordinate` (`N`, `NE`, … `NW`).
    ///
    /// - Parameter wholeKilometres: round the distance to a multiple of 1000 m (half up), for
    ///   a public reader whose `coordinate` was already rounded to the public precision.
    /// - Returns: nil only for an empty table. `bearing` is nil when the position is within
    ///   ``sameSpotDistance`` (500 m) of the city: there "at Regensburg" says more than a
    ///   direction, and with `wholeKilometres` the distance is then 0.
    public func place(near coordinate: Coordinate, wholeKilometres: Bool) -> WeatherState.Place? {
        guard let index = nearestIndex(to: coordinate) else { return nil }
        let city = city(at: index)
        let metres = city.coordinate.distance(to: coordinate)
        var place = city.place
        place.distance =
            wholeKilometres ? Int((metres / 1000).rounded(.toNearestOrAwayFromZero)) * 1000 : Int(metres.rounded())
        place.bearing =
            metres < Self.sameSpotDistance ? nil : CompassPoint(from: city.coordinate, to: coordinate).rawValue
        return place
    }

    /// Below this distance in metres from the city a place has no bearing.
    public static let sameSpotDistance = 500.0
}

/// An 8-point compass direction.
public enum CompassPoint: String, Sendable, CaseIterable {
    case north = "N", northEast = "NE", east = "E", southEast = "SE"
    case south = "S", southWest = "SW", west = "W", northWest = "NW"

    /// The direction of the initial great-circle course from `start` to `end` (0° north,
    /// clockwise), in 45° sectors centred on each point (`N` is 337.5° ..< 22.5°).
    public init(from start: Coordinate, to end: Coordinate) {
        self = CompassPoint.allCases[CompassPoint.sector(degrees: CompassPoint.course(from: start, to: end))]
    }

    /// Initial course from `start` to `end` in degrees, 0 ..< 360.
    static func course(from start: Coordinate, to end: Coordinate) -> Double {
        let φ1 = start.latitude * .pi / 180
        let φ2 = end.latitude * .pi / 180
        let Δλ = (end.longitude - start.longitude) * .pi / 180
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    static func sector(degrees: Double) -> Int {
        Int((degrees + 22.5) / 45) % 8
    }
}
