import Testing
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// `wundercastctl around`: columns aligned by display width, the centre marked, hemispheres.
@Suite struct AroundFormatTests {
    /// Nine cells from 50.02° N 11.1° E, 1° apart, with the given WMO codes (`nil`: no weather,
    /// the provider's error `down`) and temperatures.
    static func around(
        codes: [Int?], temperatures: [Double], isDay: Bool = true, latitude: Double = 50.02, longitude: Double = 11.1
    ) -> SocketProtocol.AroundResponse {
        let cells = (0..<9).map { i in
            var cell = SocketProtocol.AroundResponse.Cell(
                latitude: latitude - Double(i / 3), longitude: longitude + Double(i % 3))
            if let code = codes[i] {
                cell.weather = SampleStates.weather(code: code, isDay: isDay, temperature: temperatures[i]).weather
            } else {
                cell.error = WeatherState.ErrorInfo(code: "transport", message: "down")
            }
            return cell
        }
        return SocketProtocol.AroundResponse(
            center: .init(
                latitude: latitude - 1, longitude: longitude + 1, place: .init(name: "Regensburg", distance: 200)),
            step: 1, cells: cells)
    }

    /// Wide and narrow icons mixed in every column (an emoji presentation sequence, an emoji by
    /// default, `n/a`, one- to three-digit temperatures), in each icon set: every cell of a
    /// column starts at the display column of its longitude, whatever is left of it.
    @Test(arguments: IconSet.allCases)
    func columnsAlignByDisplayWidth(_ icons: IconSet) throws {
        // 0 ☀️, 2 ⛅, 45 🌫️, 61 🌦️, 65 ☔; nil: n/a.
        let codes: [Int?] = [nil, 0, 2, 2, 65, nil, 45, nil, 61]
        let temperatures: [Double] = [0, -12, 3, 104, -1, 0, 7, 0, -33]
        let around = Self.around(codes: codes, temperatures: temperatures)
        let text = AroundFormat.text(around, icons: icons)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(text)")
        let starts = try (0..<3).map { column in
            let longitude = Coordinate.text(11.1 + Double(column), decimals: 4) + "°"
            let range = try #require(lines[0].range(of: longitude), "\(longitude) in \(lines[0])")
            return DisplayWidth.of(lines[0][..<range.lowerBound])
        }
        #expect(starts[0] < starts[1] && starts[1] < starts[2])
        for row in 0..<3 {
            let line = lines[row + 1]
            var from = try #require(line.range(of: Coordinate.text(50.02 - Double(row), decimals: 4) + "°")).upperBound
            for column in 0..<3 {
                let cell = around.cells[row * 3 + column]
                let expected =
                    cell.weather.map { "\(Int($0.temperature!))°C " + icons.icon($0.conditionModel.kind, isDay: true) }
                    ?? "n/a"
                let range = try #require(
                    line.range(of: expected, range: from..<line.endIndex), "\(expected) in \(line)")
                #expect(
                    DisplayWidth.of(line[..<range.lowerBound]) == starts[column],
                    "row \(row) column \(column):\n\(text)")
                from = range.upperBound
            }
        }
        #expect(lines[2].contains("[-1°C " + icons.icon(.heavyRain, isDay: true) + "]"), "the centre:\n\(text)")
        #expect(lines.filter { $0.contains("[") }.count == 2, "only the centre and the footer:\n\(text)")
    }

    @Test func coordinatesHaveHemispheresNotSigns() {
        let text = AroundFormat.text(
            Self.around(
                codes: Array(repeating: 3, count: 9), temperatures: Array(repeating: 1, count: 9),
                latitude: -32.9, longitude: -71.5), icons: .emoji)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("71.5° W") && lines[0].contains("70.5° W") && lines[0].contains("69.5° W"))
        #expect(lines[1].hasPrefix("32.9° S") && lines[3].hasPrefix("34.9° S"))
        #expect(lines[4] == "[centre] 33.9° S 70.5° W (near Regensburg), step 1°")
        #expect(!text.contains("-3") && !text.contains("-7"), "no signed degrees:\n\(text)")
        #expect(PlaceText.hemispheres(latitude: 48.137154, longitude: 11.576124) == "48.137154° N 11.576124° E")
        #expect(PlaceText.hemispheres(latitude: -0.0000001, longitude: 180) == "0° 180° E")
    }
}
