import Foundation
import Testing
import WundercastModel
import WundercastFormats
import WundercastTestSupport

/// The human line tells a last known position from a current one, and leaves out what the
/// provider did not give.
@Suite struct HumanFormatAgingTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func lastKnown(_ code: String, _ message: String, fixAgo: Double) -> WeatherState {
        var s = WeatherState(status: .stale, provider: "open-meteo")
        var w = makeWeather(2.6, code: 3)
        w.relativeHumidity = 72
        s.weather = w
        s.fetchedAt = now.addingTimeInterval(-240)
        s.location = .init(
            latitude: 48.12, longitude: 11.57, mode: 3, source: .gpsd, receivedAt: now.addingTimeInterval(-fixAgo))
        s.location?.status = .lastKnown
        s.error = .init(code: code, message: message)
        return s
    }

    @Test func aPositionWithoutARecentFixSaysHowOldItsFixIs() {
        #expect(
            HumanFormat.line(lastKnown("no-fix", "no GPS fix for more than 2min", fixAgo: 200), now: now)
                == "3°C Overcast, humidity 72%, 48.12,11.57 (no GPS fix for 3 min), 4 min ago")
    }

    @Test func aLostGPSDIsNamed() {
        let line = HumanFormat.line(
            lastKnown("gpsd-unreachable", "lost gpsd at 127.0.0.1:2947: closed", fixAgo: 10), now: now)
        #expect(
            line
                == "3°C Overcast, humidity 72%, 48.12,11.57 (last known position: cannot reach gpsd), 4 min ago"
        )
    }

    /// Issue 5, point 8: a `null` temperature printed `?°C … ` with status `fresh`.
    @Test func missingValuesAreLeftOut() {
        var s = WeatherState(status: .fresh, provider: "open-meteo")
        s.weather = Weather(temperature: nil, weatherCode: 3, units: .requested(.metric))
        s.location = .init(latitude: 1, longitude: 2, source: .gpsd)
        let line = HumanFormat.line(s, now: now)
        #expect(line == "Overcast, 1,2")
        #expect(!line.contains("?"))
        s.weather = Weather(temperature: nil, units: .requested(.metric))
        #expect(HumanFormat.line(s, now: now) == "weather without values, 1,2")
    }
}
