import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastProtocol
import WundercastTestSupport

/// Every word wundercast writes for people goes through the reader's catalogue: rendered with a
/// catalogue that brackets each message (`⟦…⟧`), the human line, the bar texts and tooltips,
/// `status`, `alerts` and `around` leave no word outside the brackets but the values of the
/// state (place names, units, the alert's own texts, addresses). A string added without
/// `locale.tr` fails here.
@Suite struct EveryTextTranslatedTests {
    static let bracketed = UserLocale(
        messages: .init(single: { "⟦" + $0 + "⟧" }, plural: { "⟦" + ($2 == 1 ? $0 : $1) + "⟧" }),
        clock: .twentyFourHour, decimalSeparator: ".")
    let now = SampleStates.now

    /// The words of `text` outside every bracket.
    static func untranslatedWords(_ text: String) -> Set<String> {
        var depth = 0
        var outside = ""
        for character in text {
            switch character {
            case "⟦": depth += 1
            case "⟧": depth -= 1
            default: if depth == 0 { outside.append(character) }
            }
        }
        return Set(outside.split(whereSeparator: { !$0.isLetter }).map(String.init))
    }

    /// The values the samples below carry, shown as they are.
    static let values: Set<String> = [
        "C", "km", "h", "hPa", "mm", "UTC", "D",  // units; 3D of a fix
        "Regensburg", "Bavaria", "DE", "open", "meteo", "Tromsø",  // places, the provider
        "DWD", "Sturmböen", "Orkanartige", "Böen", "Landkreis", "München", "Warnstufe", "https", "dwd", "de",
        "gpsd", "mqtt", "mqtts", "broker", "lan", "dev", "ttyUSB", "always", "http", "HTTP", "boom",  // status
        "var", "lib", "wundercast", "authorization", "the", "file", "is", "empty", "wundercastd", "transport",
        "down", "nws", "brightsky", "refused",
    ]

    static func forecastState(status: WeatherState.Status = .fresh) -> WeatherState {
        var state = SampleStates.weather(
            status: status,
            error: status == .fresh ? nil : WeatherState.ErrorInfo(code: "http-503", message: "boom"))
        state.weather?.forecast = SampleStates.forecast()
        let alerts = (0..<4).map { index in
            Alert(
                id: "a\(index)", source: .brightSky, authority: "DWD", event: "Sturmböen",
                severity: Alert.Severity.allCases[index], onset: SampleStates.now, expires: SampleStates.now + 3600,
                headline: "Orkanartige Böen", description: "Böen", instruction: "Warnstufe",
                areaDescription: "Landkreis München", link: "https://dwd.de")
        }
        state.alerts = AlertsState(source: .brightSky, status: .unavailable, items: alerts, fetchedAt: SampleStates.now)
        return state
    }

    func check(_ text: String, _ what: String) {
        let left = Self.untranslatedWords(text).subtracting(Self.values)
        #expect(left.isEmpty, "\(what): \(left.sorted()) not translated in: \(text)")
    }

    @Test func theHumanLineAndTheBarsGoThroughTheCatalogue() throws {
        var lastKnown = SampleStates.weather(
            status: .stale, error: WeatherState.ErrorInfo(code: "no-fix", message: "no fix"))
        lastKnown.location?.status = .lastKnown
        lastKnown.location?.ageSeconds = 200
        var unknownAge = SampleStates.weather()
        unknownAge.ageUnknown = true
        unknownAge.ageSeconds = nil
        var calm = SampleStates.weather(code: nil)
        calm.weather?.windSpeed = 0
        calm.location?.place?.distance = 300
        // A public reader's place (a name without distance) and an ambiguous name's others.
        var publicPlace = SampleStates.weather()
        publicPlace.location?.place?.distance = nil
        publicPlace.location?.place?.bearing = nil
        var ambiguous = SampleStates.weather()
        ambiguous.location?.source = .lookup
        let other = WeatherState.Alternative(name: "Regensburg", region: "Bavaria", latitude: 1, longitude: 1)
        ambiguous.location?.alternatives = [other]
        var many = ambiguous
        many.location?.alternatives = Array(repeating: other, count: WeatherState.Alternative.limit)
        var states: [WeatherState] = [
            Self.forecastState(), Self.forecastState(status: .stale), Self.forecastState(status: .fetching),
            lastKnown, unknownAge, calm, publicPlace, ambiguous, many,
        ]
        for status in [WeatherState.Status.noLocation, .offline, .error, .fetching, .fresh] {
            states.append(SampleStates.withoutWeather(status))
            states.append(
                SampleStates.withoutWeather(status, error: WeatherState.ErrorInfo(code: "timeout", message: "slow")))
        }
        let template = try Template(Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: " "))
        for state in states {
            check(HumanFormat.line(state, now: now, locale: Self.bracketed), "line \(state.status)")
            let item = BarItem(state: state, now: now, locale: Self.bracketed)
            check(item.text, "bar text \(state.status)")
            check(item.shortText, "short text \(state.status)")
            check(item.tooltip.joined(separator: "\n"), "tooltip \(state.status)")
            let values = Placeholder.values(state, now: now, icons: .emoji, locale: Self.bracketed)
                .filter { $0.key != .status }  // the protocol's word, for templates that match on it
            check(template.render(values), "placeholders \(state.status)")
        }
        for kind in [BarItem.Unavailable.offline, .error] {
            check(BarItem.unavailable(kind, reason: "", locale: Self.bracketed).text, "daemon \(kind)")
        }
    }

    @Test func statusAlertsAndAroundGoThroughTheCatalogue() {
        let status = SocketProtocol.StatusResponse(
            uptimeSeconds: 7300, gpsd: .init(server: "127.0.0.1:2947", connected: true, device: "/dev/ttyUSB0"),
            fix: .init(mode: 3, ageSeconds: 4), authorization: .authorizedAlways,
            unreadableDecision: .init(path: "/var/lib/wundercast/authorization", reason: "the file is empty"),
            provider: "open-meteo", state: .stale,
            lastError: .init(code: "http-500", message: "HTTP 500", at: now - 300, clearedAt: now - 60),
            counters: .init(requests: 12, failures: 1, lookups: 3, clients: 2, watchers: 1))
        var variants = [status]
        variants[0].mqtt = .init(
            broker: "mqtts://broker.lan:8883", connected: true, since: now - 7200, lastError: "refused", messagesSent: 1
        )
        var other = status
        (other.fix, other.gpsd.connected) = (nil, false)
        other.lastError?.clearedAt = nil
        other.mqtt = .init(broker: "mqtt://broker.lan:1883", connected: false, messagesSent: 3)
        variants.append(other)
        for variant in variants { check(StatusFormat.text(variant, now: now, locale: Self.bracketed), "status") }

        let alerts = Self.forecastState().alerts!
        var ok = alerts
        ok.status = .ok
        for state in [
            alerts, ok, AlertsState(source: .nws, status: .ok, items: [], fetchedAt: now),
            AlertsState(source: nil, status: .uncovered), AlertsState(source: .nws, status: .unavailable, items: []),
        ] {
            check(AlertsFormat.text(state, now: now, locale: Self.bracketed), "alerts \(state.status)")
        }
        check(AlertsFormat.text(nil, now: now, locale: Self.bracketed), "alerts off")

        var cells = (0..<9).map { SocketProtocol.AroundResponse.Cell(latitude: Double($0), longitude: 1) }
        cells[0].weather = SampleStates.weather().weather
        cells[1].error = WeatherState.ErrorInfo(code: "transport", message: "down")
        let around = SocketProtocol.AroundResponse(
            center: .init(latitude: 49, longitude: 12, place: .init(name: "Regensburg", distance: 200)), step: 1,
            cells: cells)
        check(AroundFormat.text(around, icons: .emoji, locale: Self.bracketed), "around")
        check(
            AroundFormat.text(.init(center: around.center, step: 1, cells: []), icons: .emoji, locale: Self.bracketed),
            "around, cells missing")
    }
}
