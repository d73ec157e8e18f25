import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastTestSupport

/// The state's `moon` member: computed for each reader class at the position it sees, encoded
/// with local times and offsets, read back by a client as it was sent.
@Suite struct MoonStateTests {
    /// A moon that says where it was asked for (its date is the coordinate).
    static func moon(_ coordinate: Coordinate) -> MoonDay? {
        MoonDay(date: "\(coordinate.latitude),\(coordinate.longitude)", phase: .waxingGibbous, illumination: 0.5)
    }

    @Test func eachViewHasTheMoonOfItsOwnPosition() {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.location = .init(latitude: 48.14, longitude: 11.58, mode: 3, source: .gpsd)
        let views = StateViews.make(
            state, publicPrecision: 1, nearest: { _ in nil }, inCell: { _, _ in nil }, moon: Self.moon)
        #expect(views.precise.moon?.date == "48.14,11.58")
        #expect(views.public.moon?.date == "48.1,11.6")
    }

    @Test func noPositionNoMoon() {
        let state = WeatherState(status: .noLocation, provider: "open-meteo")
        let views = StateViews.make(
            state, publicPrecision: 1, nearest: { _ in nil }, inCell: { _, _ in nil }, moon: Self.moon)
        #expect(views.precise.moon == nil && views.public.moon == nil)
    }

    @Test func encodedWithLocalTimesAndReadBack() throws {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.location = .init(latitude: 36.95, longitude: -112.52, source: .fallback)
        let rise = try #require(ZonedTime(text: "2023-04-11T00:19:00-07:00"))
        let set = try #require(ZonedTime(text: "2023-04-11T09:35:00-07:00"))
        state.moon = MoonDay(
            date: "2023-04-11", phase: .waningGibbous, illumination: 0.678, rise: rise, set: set,
            timeZone: "America/Phoenix")
        let line = String(decoding: SocketProtocol.line(state), as: UTF8.self)
        #expect(
            line.contains(
                #""moon":{"date":"2023-04-11","illumination":0.678,"phase":"waningGibbous","#
                    + #""rise":"2023-04-11T00:19:00-07:00","set":"2023-04-11T09:35:00-07:00","timeZone":"America/Phoenix"}"#
            ), "\(line)")
        let decoded = try SocketProtocol.decodeState(Array(line.utf8))
        #expect(decoded.moon == state.moon)
    }

    /// Near the poles: no rise, no set, and where the Moon is all day.
    @Test func allDayInsteadOfRiseAndSet() throws {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.moon = MoonDay(date: "2023-01-03", phase: .fullMoon, illumination: 0.93, allDay: .up)
        let line = String(decoding: SocketProtocol.line(state), as: UTF8.self)
        #expect(line.contains(#""moon":{"allDay":"up","date":"2023-01-03","illumination":0.93,"phase":"fullMoon"}"#))
    }
}
