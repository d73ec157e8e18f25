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
}
