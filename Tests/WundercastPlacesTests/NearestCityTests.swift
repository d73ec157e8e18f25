#if canImport(Glibc)
import Glibc
#endif
import Testing
import WundercastModel
import WundercastPlaces
import WundercastTestSupport

@Suite struct NearestCityTests {
    @Test func acrossTheAntimeridian() throws {
        let table = try cityTable([
            Row(name: "Taveuni", latitude: -16.8, longitude: 179.9),
            Row(name: "Further West", latitude: -16.8, longitude: -170),
        ])
        // 0.15° of longitude away across the seam, 9.9° the other way: only a seamless index sees it.
        #expect(table.nearest(to: Coordinate(latitude: -16.8, longitude: -179.95))?.name == "Taveuni")
        #expect(table.nearest(to: Coordinate(latitude: -16.8, longitude: -171))?.name == "Further West")
    }

    @Test func nearThePoles() throws {
        let table = try cityTable([
            Row(name: "North A", latitude: 89.9, longitude: 0),
            Row(name: "North B", latitude: 89.0, longitude: 180),
            Row(name: "South A", latitude: -89.9, longitude: 90),
            Row(name: "South B", latitude: -88.0, longitude: -90),
        ])
        // Across the pole the longitudes differ by 180°, yet the cities are 17 km apart.
        #expect(table.nearest(to: Coordinate(latitude: 89.95, longitude: 180))?.name == "North A")
        #expect(table.nearest(to: Coordinate(latitude: 90, longitude: 0))?.name == "North A")
        #expect(table.nearest(to: Coordinate(latitude: -89.95, longitude: -90))?.name == "South A")
        #expect(table.nearest(to: Coordinate(latitude: -88.5, longitude: -90))?.name == "South B")
    }

    /// The k-d index finds what scanning every city finds, for cities and positions all over the globe.
    @Test func agreesWithAFullScan() throws {
        var random = SplitMix(seed: 6)
        let rows = (0..<1500).map { i in
            Row(name: "C\(i)", latitude: random.next(in: -90...90), longitude: random.next(in: -180...180))
        }
        let table = try cityTable(rows)
        let cities = (0..<table.count).map(table.city(at:))
        for _ in 0..<400 {
            let position = Coordinate(latitude: random.next(in: -90...90), longitude: random.next(in: -180...180))
            let found = try #require(table.nearest(to: position))
            let best = cities.map { $0.coordinate.distance(to: position) }.min()!
            #expect(abs(found.coordinate.distance(to: position) - best) < 1e-6, "at \(position)")
        }
    }

    @Test func emptyTableHasNoPlace() throws {
        let table = try cityTable([])
        #expect(table.nearest(to: Coordinate(latitude: 1, longitude: 2)) == nil)
        #expect(table.place(near: Coordinate(latitude: 1, longitude: 2)) == nil)
    }

    static let octants: [(CompassPoint, Double, Double)] = [
        (.north, 0.1, 0), (.northEast, 0.07, 0.07), (.east, 0, 0.1), (.southEast, -0.07, 0.07),
        (.south, -0.1, 0), (.southWest, -0.07, -0.07), (.west, 0, -0.1), (.northWest, 0.07, -0.07),
    ]

    @Test(arguments: octants)
    func bearingFromTheCityToThePosition(_ point: CompassPoint, _ dLatitude: Double, _ dLongitude: Double) throws {
        let table = try cityTable([Row(name: "Centre", latitude: 10, longitude: 20)])
        let place = try #require(
            table.place(near: Coordinate(latitude: 10 + dLatitude, longitude: 20 + dLongitude)))
        #expect(place.bearing == point.rawValue)
    }

    @Test func sectorsAreCentredOnTheirPoint() {
        #expect(CompassPoint.allCases.map(\.rawValue) == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"])
        let start = Coordinate(latitude: 0, longitude: 0)
        func point(_ degrees: Double) -> CompassPoint {
            let r = degrees * .pi / 180
            return CompassPoint(from: start, to: Coordinate(latitude: 0.1 * cos(r), longitude: 0.1 * sin(r)))
        }
        #expect(point(21) == .north)
        #expect(point(24) == .northEast)
        #expect(point(339) == .north)
        #expect(point(336) == .northWest)
    }

    @Test func placeCarriesTheCityAndTheDistance() throws {
        let table = try cityTable([
            Row(
                name: "Regensburg", region: "Bavaria", country: "DE", countryName: "Germany",
                timeZone: "Europe/Berlin", latitude: 49.01513, longitude: 12.10161),
            Row(name: "Far", latitude: 10, longitude: 10),
        ])
        let position = Coordinate(latitude: 49.1, longitude: 12.2)
        let expected = Int(Coordinate(latitude: 49.01513, longitude: 12.10161).distance(to: position).rounded())
        let place = try #require(table.place(near: position))
        #expect(
            place
                == WeatherState.Place(
                    name: "Regensburg", region: "Bavaria", country: "DE", distance: expected, bearing: "NE",
                    timeZone: "Europe/Berlin"))
        #expect((11_000..<13_000).contains(expected))
    }

    /// Within 500 m of the city there is no bearing.
    @Test(arguments: [
        (0.0, 0, nil as String?), (0.004, 445, nil), (0.0036, 400, nil), (0.0054, 600, "N"), (0.0045, 500, "N"),
        (0.1116, 12_410, "N"),
    ])
    func theBearingIsHiddenNearby(_ dLatitude: Double, _ metres: Int, _ bearing: String?) throws {
        let table = try cityTable([Row(name: "Centre", latitude: 0, longitude: 0)])
        let place = try #require(table.place(near: Coordinate(latitude: dLatitude, longitude: 0)))
        #expect(abs(place.distance! - metres) <= 15)  // 1e-4° ≈ 11 m
        #expect(place.bearing == (Double(place.distance!) < 500 ? nil : bearing))
    }
}
