import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

@Suite struct PlaceTextTests {
    let now = SampleStates.now

    @Test func theHumanLineNamesTheNearestPlaceWithDistanceAndBearing() {
        #expect(
            HumanFormat.line(SampleStates.weather(code: 3), now: now)
                == "-5°C Overcast, humidity 72%, wind 5 km/h from E, 12 km NE of Regensburg, 2 min ago")
    }

    @Test(
        arguments: [
            (12_400, "NE", "12 km NE of Regensburg"), (12_500, "NE", "13 km NE of Regensburg"),
            (999, "S", "near Regensburg"), (0, nil, "near Regensburg"), (3_000, nil, "3 km from Regensburg"),
        ] as [(Int, String?, String)])
    func distanceIsInWholeKilometresAndNearUnderOne(_ distance: Int, _ bearing: String?, _ text: String) {
        let place = WeatherState.Place(name: "Regensburg", distance: distance, bearing: bearing)
        #expect(PlaceText.nearest(place) == text)
    }

    @Test func aNamedLookupShowsTheNameAlone() {
        #expect(PlaceText.nearest(WeatherState.Place(name: "Tromsø", country: "NO")) == "Tromsø")
    }

    /// Issue 18, item 7: a reader of rounded positions gets the cell's city without distance or
    /// bearing: `near Munich`, and no `{distance}` or `{bearing}`; a lookup's place is its name.
    @Test func theDaemonsPlaceWithoutDistanceIsNearItsCity() {
        var state = SampleStates.weather(code: 3)
        state.location?.place = WeatherState.Place(name: "Munich", region: "Bavaria", country: "DE")
        #expect(
            HumanFormat.line(state, now: now)
                == "-5°C Overcast, humidity 72%, wind 5 km/h from E, near Munich, 2 min ago")
        let values = Placeholder.values(state, now: now, icons: .emoji)
        #expect(values[.place] == "near Munich")
        #expect(values[.distance] == nil && values[.bearing] == nil)
        state.location?.source = .lookup
        #expect(
            HumanFormat.line(state, now: now) == "-5°C Overcast, humidity 72%, wind 5 km/h from E, Munich, 2 min ago")
    }

    /// Issue 18, item 7: a name other places share is answered with region and country, and the
    /// line says that others share it and how to ask for one.
    @Test func anAmbiguousNameIsShownWithRegionAndCountryAndTheOthersAreSaid() {
        var state = SampleStates.weather(code: 3)
        state.location?.source = .lookup
        state.location?.place = WeatherState.Place(name: "Springfield", region: "Missouri", country: "US")
        let other = { (region: String) in
            WeatherState.Alternative(name: "Springfield", region: region, country: "US", latitude: 1, longitude: 2)
        }
        state.location?.alternatives = [other("Missouri"), other("Massachusetts"), other("Illinois")]
        #expect(
            HumanFormat.line(state, now: now)
                == "-5°C Overcast, humidity 72%, wind 5 km/h from E, Springfield, Missouri, US, 2 min ago (also 3 other places named Springfield: ask for 'Springfield, Massachusetts')"
        )
        #expect(Placeholder.values(state, now: now, icons: .emoji)[.place] == "Springfield, Missouri, US")
        state.location?.alternatives = [other("Illinois")]
        #expect(
            PlaceText.alternativesNote(state.location!)
                == "also 1 other place named Springfield: ask for 'Springfield, Illinois'")
        state.location?.alternatives = Array(repeating: other("Ohio"), count: WeatherState.Alternative.limit)
        #expect(PlaceText.alternativesNote(state.location!)?.hasPrefix("also at least 10 other places") == true)
        state.location?.alternatives = nil
        #expect(
            HumanFormat.line(state, now: now)
                == "-5°C Overcast, humidity 72%, wind 5 km/h from E, Springfield, 2 min ago")
    }

    @Test func aFallbackNameIsStillShownAndCoordinatesWithoutAPlace() {
        var state = SampleStates.weather(code: 3)
        state.location?.name = "Home"
        #expect(HumanFormat.line(state, now: now) == "-5°C Overcast, humidity 72%, wind 5 km/h from E, Home, 2 min ago")
        state.location?.name = nil
        state.location?.place = nil
        #expect(
            HumanFormat.line(state, now: now)
                == "-5°C Overcast, humidity 72%, wind 5 km/h from E, 49.12,12.2, 2 min ago")
    }

    @Test func stalenessStaysVisibleWithAPlace() {
        let state = SampleStates.weather(
            code: 3, status: .stale, error: WeatherState.ErrorInfo(code: "http-500", message: "HTTP 500"))
        #expect(
            HumanFormat.line(state, now: now)
                == "-5°C Overcast, humidity 72%, wind 5 km/h from E, 12 km NE of Regensburg, 2 min ago (stale: the weather provider has a server error (HTTP 500))"
        )
    }

    @Test func compassPoints() {
        #expect(
            [0, 44, 46, 90, 181, 270, 316, 359, -90].map { PlaceText.compass($0) } == [
                "N", "NE", "NE", "E", "S", "W", "NW", "N", "W",
            ])
    }

    @Test func statusAndAroundHaveHumanForms() {
        let status = SocketProtocol.StatusResponse(
            uptimeSeconds: 7300, gpsd: .init(server: "127.0.0.1:2947", connected: true, device: "/dev/ttyUSB0"),
            fix: .init(mode: 3, ageSeconds: 4), authorization: .authorizedAlways, provider: "open-meteo",
            state: .fresh,
            lastError: .init(code: "http-500", message: "HTTP 500\u{1B}[2J", at: now.addingTimeInterval(-300)),
            counters: .init(requests: 12, failures: 1, lookups: 3, clients: 2, watchers: 1))
        let text = StatusFormat.text(status, now: now)
        #expect(text.hasPrefix("wundercastd "))
        for part in [
            "up 2 h", "127.0.0.1:2947, connected, device /dev/ttyUSB0", "fix: 3D, 4 s old",
            "GPS authorization: always", "last error: http-500: HTTP 500 [2J (5 min ago)", "requests 12 (1 failed)",
        ] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
        #expect(!text.contains("\u{1B}"))
        // An error that no longer holds says since when.
        var cleared = status
        cleared.lastError?.clearedAt = now.addingTimeInterval(-120)
        #expect(
            StatusFormat.text(cleared, now: now).contains(
                "last error: http-500: HTTP 500 [2J (5 min ago, cleared 2 min ago)"))

        let weather = SampleStates.weather(code: 0).weather
        var cells: [SocketProtocol.AroundResponse.Cell] = []
        for i in 0..<9 {
            let latitude: Double = 50.02 - Double(i / 3)
            let longitude: Double = 11.1 + Double(i % 3)
            var cell = SocketProtocol.AroundResponse.Cell(latitude: latitude, longitude: longitude)
            if i == 8 {
                cell.error = WeatherState.ErrorInfo(code: "transport", message: "down")
            } else {
                cell.weather = weather
            }
            cells.append(cell)
        }
        let around = SocketProtocol.AroundResponse(
            center: .init(latitude: 49.02, longitude: 12.1, place: .init(name: "Regensburg", distance: 200)),
            step: 1, cells: cells)
        let lines = AroundFormat.text(around, icons: .emoji).split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].contains("11.1°") && lines[0].contains("13.1°"))
        #expect(lines[1].hasPrefix("50.02°") && lines[1].contains("-5°C ☀\u{FE0F}"))
        #expect(lines[3].hasPrefix("48.02°") && lines[3].hasSuffix("n/a"))
        #expect(lines[4] == "[centre] 49.02° N 12.1° E (near Regensburg), step 1°")
        #expect(lines[5] == "n/a: down (1 cell)")
    }
}
