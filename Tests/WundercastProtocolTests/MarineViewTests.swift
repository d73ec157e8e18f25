import Testing
import WundercastModel
import WundercastProtocol
import WundercastTestSupport

/// The sea state is the same for both reader classes, but its cell is never finer than what the
/// reader may know of the position.
@Suite struct MarineViewTests {
    @Test(arguments: [(1, 53.1, 3.9), (0, 53.0, 4.0)])
    func publicReadersGetTheCellAtTheirPrecision(_ precision: Int, _ latitude: Double, _ longitude: Double) throws {
        var state = SampleStates.weather()
        state.location = .init(latitude: 53.04, longitude: 3.96, mode: 3, source: .gpsd)
        var sea = SeaState(cell: MarineCell(Coordinate(latitude: 53.04, longitude: 3.96)).centre)
        (sea.waveHeight, sea.seaTemperature) = (0.76, 18.4)
        state.weather?.marine = sea
        let views = StateViews.make(
            state, publicPrecision: precision, nearest: { _ in nil }, inCell: { _, _ in nil })
        #expect(views.precise.weather?.marine == sea)
        let shown = try #require(views.public.weather?.marine)
        #expect(shown.cell == SeaState.Cell(latitude: latitude, longitude: longitude))
        #expect(shown.waveHeight == 0.76 && shown.seaTemperature == 18.4)
    }
}
