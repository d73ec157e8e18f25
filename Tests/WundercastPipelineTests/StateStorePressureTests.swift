import Foundation
import Testing
import WundercastModel
import WundercastPipeline

/// A provider without a pressure series: the state's tendency comes from the daemon's own fetches.
@Suite struct StateStorePressureTests {
    static let start = Date(timeIntervalSince1970: 1_768_590_000)

    static func weather(_ pressure: Double?, hours: Double, tendency: PressureTendency? = nil) -> Weather {
        Weather(
            temperature: 10, time: start.addingTimeInterval(hours * 3600), units: .requested(.metric),
            forecast: Forecast(
                seaLevelPressure: pressure, pressureTendency: tendency, units: .init(seaLevelPressure: "hPa")))
    }

    @Test func fetchesWithoutASeriesGiveATendencyFromHistory() {
        let store = StateStore(provider: "scripted", authorization: .authorizedAlways)
        store.publishWeather(Self.weather(1020, hours: 0), fetchedAt: Self.start)
        #expect(store.current.weather?.forecast?.pressureTendency == nil)  // one fetch: no tendency yet
        store.publishWeather(Self.weather(1019, hours: 1.5), fetchedAt: Self.start)
        #expect(store.current.weather?.forecast?.pressureTendency == nil)  // 1.5 h is not 3 h
        store.publishWeather(Self.weather(1017.8, hours: 3), fetchedAt: Self.start)
        let tendency = store.current.weather?.forecast?.pressureTendency
        #expect(tendency == PressureTendency(change: -2.2, source: .history))
        #expect(tendency?.trend == .falling)
    }

    @Test func aProvidersOwnTendencyWins() {
        let store = StateStore(provider: "scripted", authorization: .authorizedAlways)
        store.publishWeather(Self.weather(1020, hours: 0), fetchedAt: Self.start)
        let own = PressureTendency(change: 0.4, source: .hourly)
        store.publishWeather(Self.weather(1025, hours: 3, tendency: own), fetchedAt: Self.start)
        #expect(store.current.weather?.forecast?.pressureTendency == own)
    }

    @Test func weatherWithoutPressureIsLeftAsItIs() {
        let store = StateStore(provider: "scripted", authorization: .authorizedAlways)
        let plain = Weather(temperature: 3, time: Self.start, units: .requested(.metric))
        store.publishWeather(plain, fetchedAt: Self.start)
        #expect(store.current.weather == plain)
    }
}
