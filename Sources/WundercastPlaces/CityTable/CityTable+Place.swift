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
        NearestCityIndex.nearest(to: NearestCityIndex.point(coordinate), count: count, pointAt: point(at:))
    }

    /// The state's place for a position: the nearest city (``nearest(to:)``) with its region,
    /// ISO country code and time zone, the `distance` in metres from the city to `coordinate`
    /// and the 8-point compass `bearing` from the city to `coordinate` (`N`, `NE`, … `NW`).
    ///
    /// - Returns: nil only for an empty table. `bearing` is nil when the position is within
    ///   ``sameSpotDistance`` (500 m) of the city: there "at Regensburg" says more than a direction.
    public func place(near coordinate: Coordinate) -> WeatherState.Place? {
        guard let index = nearestIndex(to: coordinate) else { return nil }
        let city = city(at: index)
        let metres = city.coordinate.distance(to: coordinate)
        var place = city.place
        place.distance = Int(metres.rounded())
        place.bearing =
            metres < Self.sameSpotDistance ? nil : CompassPoint(from: city.coordinate, to: coordinate).rawValue
        return place
    }

    /// The place named to a reader who sees positions only to `decimals` decimals (a public
    /// reader at `PublicPrecision=`), for `cell`, a position already rounded to them: the most
    /// populous city within half a cell of it (½·10⁻ᵈᵉᶜⁱᵐᵃˡˢ degrees in latitude and in
    /// longitude: the cities whose own position rounds to `cell`, and those on its edges), else the city nearest to
    /// `cell`. Name, region, country and time zone only: a distance or bearing from a rounded
    /// position would claim a precision it does not have, and one from the precise position
    /// would tell more than the cell.
    ///
    /// In central Munich (48.137,11.575, cell 48.1,11.6 at 1 decimal) it is Munich, though the
    /// city nearest to the cell's centre is Unterhaching. Nil only for an empty table.
    public func place(inCell cell: Coordinate, decimals: Int) -> WeatherState.Place? {
        let half = 0.5 / (0..<max(0, decimals)).reduce(1.0) { scale, _ in scale * 10 }
        // Every point of the cell is within `half` of its centre along the meridian and
        // `half·cos(latitude)` along the parallel: within 2·half degrees of arc in all.
        let arc = min(Double.pi, 2 * half * .pi / 180)
        let target = NearestCityIndex.point(cell)
        var best: (index: Int, population: Int32, squared: Double)?
        NearestCityIndex.within(chord: 2 * sin(arc / 2), of: target, count: count, pointAt: point(at:)) { index in
            let city = coordinate(at: index)
            let dLongitude = abs(city.longitude - cell.longitude)
            guard abs(city.latitude - cell.latitude) <= half + Self.cellSlack,
                min(dLongitude, 360 - dLongitude) <= half + Self.cellSlack
            else { return }
            let d = point(at: index) - target
            let candidate = (index: index, population: populations[index], squared: (d * d).sum())
            // The most populous; of two as populous, the nearer.
            if let chosen = best,
                chosen.population > candidate.population
                    || (chosen.population == candidate.population && chosen.squared <= candidate.squared)
            {
                return
            }
            best = candidate
        }
        guard let index = best?.index ?? nearestIndex(to: cell) else { return nil }
        return city(at: index).place
    }

    /// Where city `index` is on the unit sphere (``NearestCityIndex``).
    func point(at index: Int) -> SIMD3<Double> {
        NearestCityIndex.point(latitude: latitudes[index], longitude: longitudes[index])
    }

    /// Slack on a cell's edges for binary fractions (a city exactly on the edge is in the cell).
    static let cellSlack = 1e-9

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
