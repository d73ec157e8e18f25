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

    @Test func aStateWithoutPositionIsTheSameForEveryone() {
        let state = WeatherState(status: .noLocation, provider: "open-meteo")
        #expect(
            StateViews.make(state, publicPrecision: 0, nearest: Self.nearest, inCell: Self.inCell) == StateViews(state))
    }
}
