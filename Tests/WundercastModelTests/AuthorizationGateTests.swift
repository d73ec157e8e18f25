import Testing
import WundercastModel

/// ``AuthorizationStatus/allows(source:)``: the one gate every part asks.
@Suite struct AuthorizationGateTests {
    @Test(arguments: AuthorizationStatus.allCases)
    func gpsAndTheFallbackNeverStandTogether(_ status: AuthorizationStatus) {
        let granted = status == .authorizedAlways || status == .authorizedWhenInUse
        #expect(status.allows(source: .gpsd) == granted)
        #expect(status.allows(source: .fallback) == !granted)
        #expect(status.allows(source: .lookup))
        #expect(!status.allows(source: .unrecognized("glonass")))
    }
}
