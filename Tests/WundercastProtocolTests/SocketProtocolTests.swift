import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

@Suite struct SocketProtocolTests {
    @Test(arguments: [
        ("now", SocketProtocol.Request.now),
        ("  now \r", .now),
        ("watch", .watch(.init())),
        ("watch weather", .watch(.init(weatherOnly: true))),
        ("watch every 60s", .watch(.init(every: .seconds(60)))),
        ("watch weather every 1 min", .watch(.init(weatherOnly: true, every: .seconds(60)))),
        ("weather Tromsø", .weather(.name("Tromsø"))),
        ("weather Los Angeles, CA", .weather(.name("Los Angeles, CA"))),
        ("weather 69.65,18.96", .weather(.coordinate(Coordinate(latitude: 69.65, longitude: 18.96)))),
        ("weather -33.9, 151.2", .weather(.coordinate(Coordinate(latitude: -33.9, longitude: 151.2)))),
        ("around", .around(center: nil, step: 1)),
        ("around 0.5", .around(center: nil, step: 0.5)),
        ("around 48.1,11.6", .around(center: .coordinate(Coordinate(latitude: 48.1, longitude: 11.6)), step: 1)),
        ("around São Paulo 2", .around(center: .name("São Paulo"), step: 2)),
        ("status", .status),
        ("refresh", .refresh),
        ("version", .version),
        ("help", .help),
        ("authorize", .authorize(nil)),
        ("authorize when-in-use", .authorize(.authorizedWhenInUse)),
        ("authorize ask", .authorize(.notDetermined)),
    ])
    func parsesRequests(line: String, expected: SocketProtocol.Request) throws {
        #expect(try SocketProtocol.parse(line) == expected)
    }

    @Test(arguments: [
        ("", "empty request"),
        ("NOW", "unknown request 'NOW'"),
        ("?WATCH={\"enable\":true}", "unknown request"),
        ("now please", "'now' takes no arguments, got 'please'"),
        ("authorize sometimes", "'authorize sometimes'"),
        ("authorize always now", "takes one argument"),
        ("weather", "needs a PLACE"),
        ("weather 91,10", "latitude must be in -90...90"),
        ("weather 48.8,", "neither LAT,LON"),
        ("around 0", "outside 0.01...10"),
        ("watch every 0s", "from 1s to 1d"),
        ("watch often", "'watch often'"),
    ])
    func refusesBadRequestsNamingWhatWasWrong(line: String, fragment: String) {
        #expect {
            try SocketProtocol.parse(line)
        } throws: { error in
            (error as? SocketProtocol.RequestError)?.message.contains(fragment) == true
        }
    }

    @Test func everyResponseStartsWithItsClass() {
        #expect(
            String(
                decoding: SocketProtocol.line(
                    SocketProtocol.ErrorResponse(.badArgument, message: "\"class\":\"X\", no")),
                as: UTF8.self)
                == #"{"class":"ERROR","code":"bad-argument","message":"\"class\":\"X\", no"}"# + "\n")
        #expect(
            String(decoding: SocketProtocol.line(SocketProtocol.AuthorizationResponse(.denied)), as: UTF8.self)
                == #"{"class":"AUTHORIZATION","config":"denied","status":"denied"}"# + "\n")
    }

    @Test func weatherLineIsOneJSONObjectWithClassAndNoNulls() throws {
        var state = WeatherState(status: .fresh, provider: "open-meteo", authorization: .authorizedAlways)
        state.weather = makeWeather(-0.0)
        state.fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)
        let bytes = SocketProtocol.line(state.stamped(now: Date(timeIntervalSince1970: 1_700_000_090)))
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(bytes.dropLast().contains(UInt8(ascii: "\n")) == false)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"class":"WEATHER","ageSeconds":90,"#), "class first, then sorted: \(text)")
        #expect(!text.contains("null"))
        #expect(text.contains("\"fetchedAt\":\"2023-11-14T22:13:20Z\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["class"] as? String == "WEATHER")
        #expect(object["ageSeconds"] as? Int == 90)
        #expect(object["location"] == nil)
        let decoded = try SocketProtocol.decodeState(bytes.dropLast())
        #expect(decoded.weather?.temperature == 0)
        #expect(decoded.weather?.temperature?.sign == .plus)
    }
}

@Suite struct HumanFormatTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func state(_ status: WeatherState.Status, weather: Weather? = nil, fetchedAgo: Double? = nil) -> WeatherState {
        var s = WeatherState(status: status, provider: "open-meteo")
        s.weather = weather
        s.fetchedAt = fetchedAgo.map { now.addingTimeInterval(-$0) }
        s.location = .init(latitude: 44.44, longitude: 26.13, mode: 3, source: .gpsd)
        return s
    }

    @Test func freshLine() {
        var w = makeWeather(2.6, code: 3)
        w.relativeHumidity = 72
        #expect(
            HumanFormat.line(state(.fresh, weather: w, fetchedAgo: 150), now: now)
                == "3°C Overcast, humidity 72%, 44.44,26.13, 2 min ago")
    }

    @Test func fetchingLineKeepsTheOldWeatherApartFromTheNewPlace() {
        var w = makeWeather(2.6, code: 3)
        w.relativeHumidity = 72
        #expect(
            HumanFormat.line(state(.fetching, weather: w, fetchedAgo: 30), now: now)
                == "3°C Overcast, humidity 72%, 30 s ago; updating for 44.44,26.13…")
    }

    @Test func staleLineSaysSoAndWhy() {
        var s = state(.stale, weather: makeWeather(-5.3, code: 0), fetchedAgo: 4000)
        s.error = .init(code: "http-500", message: "HTTP 500")
        let line = HumanFormat.line(s, now: now)
        #expect(line.hasPrefix("-5°C Clear sky"))
        #expect(line.hasSuffix("1 h ago (stale: the weather provider has a server error (HTTP 500))"), "\(line)")
    }

    @Test func withoutWeatherTheLineSaysWhatIsGoingOn() {
        #expect(HumanFormat.line(state(.fetching), now: now) == "fetching weather for 44.44,26.13…")
        var s = state(.noLocation)
        s.location = nil
        #expect(HumanFormat.line(s, now: now) == "no location yet")
        s.error = .init(code: "denied", message: "GPS use is denied")
        #expect(HumanFormat.line(s, now: now) == "no location: GPS use is denied and no fallback place is set")
    }

    @Test(arguments: [(0, "just now"), (42, "42 s ago"), (119, "1 min ago"), (7200, "2 h ago"), (200_000, "2 d ago")])
    func ages(seconds: Int, text: String) {
        #expect(HumanFormat.ageText(seconds) == text)
    }

    /// `STATUS=` is read later: the weather's clock time (UTC), not its age.
    @Test(arguments: [(0.0, "00:00"), (59.9, "00:00"), (3_660, "01:01"), (86_399, "23:59"), (-60, "23:59")])
    func clockTimes(seconds: Double, text: String) {
        var s = state(.fresh, weather: makeWeather(2.6, code: 3))
        s.fetchedAt = Date(timeIntervalSince1970: 1_699_920_000 + seconds)  // a midnight UTC, 2023-11-14
        let line = HumanFormat.line(s, now: Date(timeIntervalSince1970: 1_700_090_000), age: .clockTime)
        #expect(line.contains("weather of \(text) UTC") && !line.contains("ago"), "\(line)")
    }
}
