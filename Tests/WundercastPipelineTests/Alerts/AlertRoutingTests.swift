import Testing
import WundercastModel
import WundercastPipeline

@Suite struct AlertRoutingTests {
    static let all = Set(AlertSourceID.allCases)

    @Test(arguments: [
        ("US", AlertSourceID.nws), ("PR", .nws), ("GU", .nws), ("NO", .metAlerts), ("SJ", .metAlerts),
        ("DE", .brightSky), ("CA", .eccc), ("de", .brightSky),
    ])
    func eachCountryGoesToItsAuthority(country: String, source: AlertSourceID) {
        #expect(AlertRouting.source(forCountry: country, among: Self.all) == source)
    }

    @Test func aCountryNoSourceCoversOrAnUnknownOneHasNone() {
        #expect(AlertRouting.source(forCountry: "FR", among: Self.all) == nil)
        #expect(AlertRouting.source(forCountry: nil, among: Self.all) == nil)
    }

    @Test func onlyTheConfiguredSourcesAreUsed() {
        #expect(AlertRouting.source(forCountry: "US", among: [.brightSky]) == nil)
        #expect(AlertRouting.source(forCountry: "DE", among: [.brightSky]) == .brightSky)
    }

    /// The middle of an ocean is no country's: the nearest city (Pago Pago, 1,977 km from
    /// 0,-160) does not make NWS answer for it (found by the hostile review).
    @Test func aCityFartherThan500kmStandsForNoCountry() {
        #expect(AlertRouting.country(of: .init(name: "Pago Pago", country: "AS", distance: 1_977_000)) == nil)
        #expect(AlertRouting.country(of: .init(name: "Bergen", country: "NO", distance: 150_000)) == "NO")
        #expect(AlertRouting.country(of: .init(name: "Nowhere", country: "NO")) == nil, "no distance, no claim")
        #expect(AlertRouting.country(of: nil) == nil)
    }
}
