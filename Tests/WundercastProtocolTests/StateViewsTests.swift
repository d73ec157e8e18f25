import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastTestSupport

/// Public readers get the position rounded to PublicPrecision and the place named for the
/// rounded position alone, without distance and bearing; precise readers get both as they are.
@Suite struct StateViewsTests {
    /// A nearest-place function that reports what it was asked (distance: metres to 48,11).
    static func nearest(_ c: Coordinate) -> WeatherState.Place? {
        let metres = Coordinate(latitude: 48, longitude: 11).distance(to: c)
        return WeatherState.Place(name: "Origin", country: "DE", distance: Int(metres.rounded()), bearing: "NE")
    }

    /// A cell's place that reports what it was asked.
    static func inCell(_ c: Coordinate, _ decimals: Int) -> WeatherState.Place? {
        WeatherState.Place(name: "Cell \(c.latitude),\(c.longitude) at \(decimals)", country: "DE")
    }

    @Test func publicReadersGetARoundedPositionAndItsCellsPlaceOnly() throws {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.location = .init(latitude: 48.14, longitude: 11.58, mode: 3, source: .gpsd)
        let views = StateViews.make(state, publicPrecision: 1, nearest: Self.nearest, inCell: Self.inCell)
        let precise = try #require(views.precise.location)
        #expect(precise.latitude == 48.14 && precise.longitude == 11.58)
        #expect(precise.place == Self.nearest(Coordinate(latitude: 48.14, longitude: 11.58)))
        let shown = try #require(views.public.location)
        #expect(shown.latitude == 48.1 && shown.longitude == 11.6)
        #expect(shown.place == WeatherState.Place(name: "Cell 48.1,11.6 at 1", country: "DE"))
        #expect(shown.place?.distance == nil && shown.place?.bearing == nil)
        #expect(views[.public].location?.mode == 3)
        #expect(views.position(for: .public) == Coordinate(latitude: 48.1, longitude: 11.6))
    }

    /// A provider's error text that echoes the request (OpenWeatherMap's 401 quotes the URL)
    /// does not give public readers the precise position.
    @Test func publicErrorTextsHaveThePositionRounded() throws {
        var state = WeatherState(status: .error, provider: "openweathermap")
        state.location = .init(latitude: 44.44, longitude: -74.0061, mode: 3, source: .gpsd)
        state.error = .init(
            code: "http-401",
            message:
                "HTTP 401: Invalid API key /data/2.5/weather?lat=44.44&lon=-74.0061&units=metric (44.44,-74.006; 144.44)"
        )
        let views = StateViews.make(state, publicPrecision: 1, nearest: Self.nearest, inCell: Self.inCell)
        #expect(views.precise.error == state.error)
        #expect(
            views.public.error?.message
                == "HTTP 401: Invalid API key /data/#/weather?lat=#&lon=-#&units=metric (#,-#; #)")
        // Forms no rounding of the decimals would catch (the hostile pass of issue 14).
        for (text, shown) in [
            ("HTTP 400: Cannot serve 33.87°S 151.2°E", "HTTP 400: Cannot serve #°S #°E"),
            ("HTTP 400: Breite -33,87 Länge 151,21.", "HTTP 400: Breite -# Länge #."),
            ("HTTP 400: cell -3387/15121", "HTTP 400: cell -#/#"),
        ] {
            var echoed = state
            echoed.error?.message = text
            #expect(
                StateViews.make(echoed, publicPrecision: 1, nearest: Self.nearest, inCell: Self.inCell).public.error?
                    .message == shown)
        }
        #expect(
            UntrustedText.hidingPosition(
                "at 48.1400,11.58 and 48.1", exact: Coordinate(latitude: 48.14, longitude: 11.58), publicPrecision: 1)
                == "at 48.1,11.6 and 48.1")
    }

    /// Issue 19, item 5: a public reader learns whether the machine moves, never its speed or
    /// course (with a coarse position they would let it follow the machine); precise readers
    /// get all three. Checked on the line the socket sends.
    @Test func publicReadersGetMovingWithoutSpeedOrCourse() throws {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.location = .init(latitude: 38.11, longitude: -122.86, mode: 3, source: .gpsd)
        let motion = WeatherState.Motion(moving: true, speed: 4.2, course: 212, units: .init(speed: "kn"))
        state.location?.motion = motion
        let views = StateViews.make(state, publicPrecision: 1, nearest: Self.nearest, inCell: Self.inCell)
        #expect(views.precise.location?.motion == motion)
        #expect(views.public.location?.motion == WeatherState.Motion(moving: true))
        let precise = String(decoding: SocketProtocol.line(views.precise), as: UTF8.self)
        #expect(
            precise.contains(#""motion":{"course":212,"moving":true,"speed":4.2,"units":{"course":"°","speed":"kn"}}"#))
        let publicLine = String(decoding: SocketProtocol.line(views.public), as: UTF8.self)
        #expect(publicLine.contains(#""motion":{"moving":true}"#))
        for word in ["speed", "course", "4.2", "212"] { #expect(!publicLine.contains(word), "\(word)") }
        let decoded = try SocketProtocol.decodeState(Array(SocketProtocol.line(views.public)))
        #expect(decoded.location?.motion == WeatherState.Motion(moving: true))
    }

    /// Found by the hostile review of issue 19: the days' sunrise and sunset, to the second at
    /// the precise position, let a public reader fit the position inside its cell (solar noon
    /// gives the longitude, the day's length the latitude). Two machines in one public cell
    /// show the public reader the same times: the sun's at the rounded position.
    @Test func publicSunTimesAreTheRoundedPositions() throws {
        func state(_ latitude: Double, _ longitude: Double) -> WeatherState {
            var state = WeatherState(status: .fresh, provider: "metno")
            state.location = .init(latitude: latitude, longitude: longitude, mode: 3, source: .gpsd)
            var forecast = Forecast(utcOffsetSeconds: 3600, units: .init())
            forecast.days = (0..<3).map { n in
                let date = Forecast.dateText(day: 20_903 + n)  // 2027-03-26 …
                let sun = Sun.day(
                    at: Coordinate(latitude: latitude, longitude: longitude),
                    on: CivilDate(daysSince1970: 20_903 + n), utcOffset: 3600)
                return Forecast.Day(date: date, high: 5, low: -1, sunrise: sun.sunrise, sunset: sun.sunset)
            }
            state.weather = Weather(temperature: 1, units: .requested(.metric), forecast: forecast)
            return state
        }
        let first = StateViews.make(state(59.62, 10.55), publicPrecision: 0, nearest: Self.nearest, inCell: Self.inCell)
        let second = StateViews.make(
            state(60.38, 11.41), publicPrecision: 0, nearest: Self.nearest, inCell: Self.inCell)
        let precise = try #require(first.precise.weather?.forecast?.days)
        #expect(precise != second.precise.weather?.forecast?.days, "the precise views differ")
        let shown = try #require(first.public.weather?.forecast?.days)
        #expect(shown == second.public.weather?.forecast?.days)
        let cell = Sun.day(
            at: Coordinate(latitude: 60, longitude: 11), on: CivilDate(daysSince1970: 20_903), utcOffset: 3600)
        #expect(shown[0].sunrise == cell.sunrise && shown[0].sunset == cell.sunset)
        #expect(shown[0].sunrise != precise[0].sunrise)
        #expect(shown.map(\.high) == precise.map(\.high))
    }

    @Test func aStateWithoutPositionIsTheSameForEveryone() {
        let state = WeatherState(status: .noLocation, provider: "open-meteo")
        #expect(
            StateViews.make(state, publicPrecision: 0, nearest: Self.nearest, inCell: Self.inCell) == StateViews(state))
    }
}
