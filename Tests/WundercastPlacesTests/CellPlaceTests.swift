import Testing
import WundercastModel
import WundercastPlaces
import WundercastTestSupport

/// The place a reader of rounded positions is told (issue 18, item 7): chosen from the rounded
/// position alone — the most populous city within half a cell of it, else the nearest — as a
/// name only.
@Suite struct CellPlaceTests {
    /// A big city near the cell's edge wins over a small one at its centre; outside the cell
    /// only the nearest counts.
    @Test func theMostPopulousCityOfTheCellElseTheNearest() throws {
        let table = try cityTable([
            Row(
                name: "Big", region: "R", country: "DE", timeZone: "Europe/Berlin", latitude: 48.14, longitude: 11.57,
                population: 1_000_000),
            Row(name: "Small", latitude: 48.07, longitude: 11.61, population: 20_000),
            Row(name: "Huge outside", latitude: 48.16, longitude: 11.6, population: 5_000_000),
        ])
        let place = try #require(table.place(inCell: Coordinate(latitude: 48.1, longitude: 11.6), decimals: 1))
        #expect(place == WeatherState.Place(name: "Big", region: "R", country: "DE", timeZone: "Europe/Berlin"))
        #expect(place.distance == nil && place.bearing == nil)
        // At 2 decimals no city is in the cell 48.10,11.60: the nearest to it.
        #expect(table.place(inCell: Coordinate(latitude: 48.1, longitude: 11.6), decimals: 2)?.name == "Small")
        #expect(table.place(inCell: Coordinate(latitude: 48.14, longitude: 11.57), decimals: 2)?.name == "Big")
    }

    /// A city exactly on the cell's edge rounds into it (half away from zero) and is in it; the
    /// cell reaches across the antimeridian.
    @Test func edgesAndTheAntimeridian() throws {
        let table = try cityTable([
            Row(name: "Edge", latitude: 10.05, longitude: 20, population: 50_000),
            Row(name: "Centre", latitude: 10, longitude: 20, population: 20_000),
            Row(name: "East of the seam", latitude: -16.8, longitude: 179.96, population: 30_000),
            Row(name: "West of the seam", latitude: -16.8, longitude: -179.9, population: 20_000),
        ])
        #expect(table.place(inCell: Coordinate(latitude: 10.1, longitude: 20), decimals: 1)?.name == "Edge")
        #expect(table.place(inCell: Coordinate(latitude: 10, longitude: 20), decimals: 1)?.name == "Edge")
        #expect(
            table.place(inCell: Coordinate(latitude: -16.8, longitude: -180), decimals: 1)?.name == "East of the seam")
    }

    /// What scanning every city finds, for random tables and cells at 0 to 2 decimals.
    @Test func agreesWithAFullScan() throws {
        var random = SplitMix(seed: 18)
        let rows = (0..<1500).map { i in
            Row(
                name: "C\(i)", latitude: random.next(in: 40...50), longitude: random.next(in: 5...15),
                population: Int(random.next(in: 15_000...90_000)))
        }
        let table = try cityTable(rows)
        let cities = (0..<table.count).map(table.city(at:))
        for decimals in 0...2 {
            for _ in 0..<150 {
                let cell = Coordinate(latitude: random.next(in: 39...51), longitude: random.next(in: 4...16))
                    .rounded(toDecimals: decimals)
                let half = [0.5, 0.05, 0.005][decimals] + 1e-9
                let inCell = cities.filter {
                    abs($0.coordinate.latitude - cell.latitude) <= half
                        && abs($0.coordinate.longitude - cell.longitude) <= half
                }
                let expected =
                    inCell.max {
                        ($0.population, -$0.coordinate.distance(to: cell)) < (
                            $1.population, -$1.coordinate.distance(to: cell)
                        )
                    }
                    ?? table.nearest(to: cell)
                #expect(table.place(inCell: cell, decimals: decimals)?.name == expected?.name, "\(cell) at \(decimals)")
            }
        }
    }

    @Test func anEmptyTableHasNone() throws {
        #expect(try cityTable([]).place(inCell: Coordinate(latitude: 1, longitude: 2), decimals: 1) == nil)
    }
}
