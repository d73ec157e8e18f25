import Testing
import WundercastModel
import WundercastPipeline
import WundercastPlaces
import WundercastTestSupport

/// Which alert source a position gets, by its nearest city in the real city table (libgeonames):
/// in each covered country, in a territory NWS serves, at sea off Norway, near a border, and
/// where no source covers.
@Suite struct AlertRoutingOnTheCityTableTests {
    static let all = Set(AlertSourceID.allCases)

    @Test(arguments: [
        ("Phoenix", 33.45, -112.07, AlertSourceID?.some(.nws)),
        ("San Juan, Puerto Rico", 18.47, -66.11, .nws),
        ("Tromsø", 69.65, 18.96, .metAlerts),
        ("the North Sea off Bergen, 30 km out", 60.39, 4.75, .metAlerts),
        ("Longyearbyen, Svalbard", 78.22, 15.65, .metAlerts),
        ("Regensburg", 49.01, 12.10, .brightSky),
        ("Ottawa", 45.42, -75.69, .eccc),
        ("Paris", 48.86, 2.35, nil),
        ("Strasbourg, across the Rhine from Kehl", 48.58, 7.75, nil),
    ])
    func theNearestCitysCountryChoosesTheSource(
        place: String, latitude: Double, longitude: Double, source: AlertSourceID?
    ) async throws {
        let table = try await RealCityTable.table()
        let country = table.place(near: Coordinate(latitude: latitude, longitude: longitude))?.country
        #expect(
            AlertRouting.source(forCountry: country, among: Self.all) == source,
            "\(place): nearest city in \(country ?? "-")")
    }
}
