import Foundation
import Testing
import WundercastModel

/// The state's typed source and error codes keep the wire strings they replaced.
@Suite struct StateCodeTests {
    static func decodeLocation(source: String) throws -> WeatherState.Location {
        try JSONDecoder().decode(
            WeatherState.Location.self, from: Data(#"{"latitude":1,"longitude":2,"source":"\#(source)"}"#.utf8))
    }

    @Test func sourcesKeepTheirWireStrings() throws {
        let expected: [(WeatherState.Location.Source, String)] = [
            (.gpsd, "gpsd"), (.fallback, "fallback"), (.lookup, "lookup"),
        ]
        for (source, text) in expected {
            let location = WeatherState.Location(latitude: 1, longitude: 2, source: source)
            let line = String(decoding: try JSONEncoder().encode(location), as: UTF8.self)
            #expect(line.contains(#""source":"\#(text)""#), "\(line)")
            #expect(try Self.decodeLocation(source: text).source == source)
        }
    }

    /// A reader of this build still reads a state whose source it does not know (a newer
    /// daemon's), and writes it back unchanged.
    @Test func anUnknownSourceDecodesAndEncodesUnchanged() throws {
        let location = try Self.decodeLocation(source: "glonass")
        #expect(location.source == .unrecognized("glonass"))
        #expect(location.source != .gpsd && location.source != .fallback)
        let line = String(decoding: try JSONEncoder().encode(location), as: UTF8.self)
        #expect(line.contains(#""source":"glonass""#), "\(line)")
        #expect(WeatherState.Location.Source(rawValue: "gpsd") == .gpsd)
    }

    @Test func aPositionSourceNamesItsPublishedSource() {
        let fix = Fix(coordinate: Coordinate(latitude: 1, longitude: 2), mode: .threeD)
        #expect(WeatherState.Location.Source(.gps(fix)) == .gpsd)
        #expect(WeatherState.Location.Source(.fallback(name: "Home")) == .fallback)
    }

    @Test func theDaemonsOwnErrorCodesKeepTheirWireStrings() {
        let expected: [(WeatherState.ErrorInfo.Code, String)] = [
            (.noFix, "no-fix"), (.gpsdUnreachable, "gpsd-unreachable"), (.deviceGone, "device-gone"),
            (.denied, "denied"), (.notDetermined, "not-determined"), (.fallbackName, "fallback-name"),
            (.cached, "cached"),
        ]
        #expect(expected.count == WeatherState.ErrorInfo.Code.allCases.count)
        for (code, text) in expected {
            let info = WeatherState.ErrorInfo(code, message: "m")
            #expect(info.code == text)
            #expect(info.known == code)
        }
        #expect(WeatherState.ErrorInfo(code: "http-500", message: "m").known == nil)
    }
}
