import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

/// The reader's locale without gettext: placeholders, the clock styles `nl_langinfo` gives, the
/// decimal separator — and that the JSON a bar reads keeps its structure in any locale.
@Suite struct UserLocaleTests {
    /// A catalogue that answers with fixed texts.
    static func locale(
        _ texts: [String: String], clock: ClockStyle = .twentyFourHour, decimal: String = "."
    ) -> UserLocale {
        UserLocale(
            messages: .init(single: { texts[$0] ?? $0 }, plural: { texts[$2 == 1 ? $0 : $1] ?? ($2 == 1 ? $0 : $1) }),
            clock: clock, decimalSeparator: decimal)
    }

    @Test func placeholdersAreFilledOnceInTheTranslationsOrder() {
        let locale = Self.locale(["wind {speed} from {direction}": "vent {direction} {speed}"])
        #expect(locale.tr("wind {speed} from {direction}", ["speed": "9 km/h", "direction": "E"]) == "vent E 9 km/h")
        // A value is never read as a placeholder; an unknown name and a lone brace stay as written.
        #expect(UserLocale.english.tr("near {place}", ["place": "{place} {n}"]) == "near {place} {n}")
        #expect(UserLocale.english.tr("{other} {place", ["place": "x"]) == "{other} {place")
        #expect(UserLocale.english.trn("{n} cell", "{n} cells", 1) == "1 cell")
        #expect(UserLocale.english.trn("{n} cell", "{n} cells", 12) == "12 cells")
    }

    @Test func aContextKeepsEqualEnglishTextsApart() {
        let locale = Self.locale(["compass point\u{4}E": "O", "E": "wrong"])
        #expect(locale.trp("compass point", "E") == "O")
        #expect(UserLocale.english.trp("compass point", "E") == "E", "no translation: the English text")
    }

    /// `nl_langinfo(T_FMT)`, `T_FMT_AMPM`, `AM_STR`, `PM_STR` of glibc 2.36's locales.
    @Test(arguments: [
        ("C", "%H:%M:%S", "%I:%M:%S %p", "AM", "PM", ["15:05", "00:05", "12:00"]),
        ("en_US", "%r", "%I:%M:%S %p", "AM", "PM", ["3:05 PM", "12:05 AM", "12:00 PM"]),
        ("en_GB", "%T", "%l:%M:%S %P %Z", "am", "pm", ["15:05", "00:05", "12:00"]),
        ("de_DE", "%T", "", "", "", ["15:05", "00:05", "12:00"]),
        ("nb_NO", "kl. %H.%M %z", "", "", "", ["15.05", "00.05", "12.00"]),
        ("ko_KR", "%H시 %M분 %S초", "%p %I시 %M분 %S초", "오전", "오후", ["15:05", "00:05", "12:00"]),
        (
            "a 12-hour clock with the marker first", "%p %I:%M:%S", "%p %I:%M:%S", "午前", "午後",
            ["午後 3:05", "午前 12:05", "午後 12:00"]
        ),
        ("a 12-hour format without names for the halves", "%I:%M:%S", "", "", "", ["15:05", "00:05", "12:00"]),
    ])
    func theClockFollowsTheLocalesTimeFormat(
        _ name: String, _ format: String, _ ampm: String, _ am: String, _ pm: String, _ expected: [String]
    ) {
        let clock = ClockStyle(timeFormat: format, amPmFormat: ampm, am: am, pm: pm)
        #expect([(15, 5), (0, 5), (12, 0)].map { clock.text(hour: $0, minute: $1) } == expected, "\(name)")
    }

    /// Sunrise, sunset and the hours of the tooltip on the reader's clock; a 12-hour clock for
    /// the alerts' UTC times too.
    @Test func theTooltipsTimesAreOnTheReadersClock() {
        var state = SampleStates.weather()
        state.weather?.forecast = SampleStates.forecast()
        let twelve = Self.locale(
            [:], clock: ClockStyle(timeFormat: "%r", amPmFormat: "%I:%M:%S %p", am: "AM", pm: "PM"))
        let tooltip = BarItem(state: state, now: SampleStates.now, locale: twelve).tooltip
        #expect(tooltip.contains("Sunrise 7:32 AM, sunset 5:22 PM"), "\(tooltip)")
        // The forecast's hours from 10:00 on the place's clock (UTC+1).
        #expect(tooltip.contains("10:00 AM 🌧️ -5°C Slight rain (20%, 0.4 mm)"), "\(tooltip)")
        #expect(tooltip.contains("12:00 PM 🌧️ -6°C Slight rain (20%, 0.4 mm)"), "\(tooltip)")
        let values = Placeholder.values(state, now: SampleStates.now, icons: .emoji, locale: twelve)
        #expect(values[.sunrise] == "7:32 AM" && values[.sunset] == "5:22 PM")
        let english = BarItem(state: state, now: SampleStates.now).tooltip
        #expect(english.contains("Sunrise 07:32, sunset 17:22"), "\(english)")
    }

    /// Numbers in human text take the locale's decimal separator (pressure change, inHg,
    /// precipitation); coordinates keep their point (they are copied into maps as published)
    /// and JSON members keep their type.
    @Test func theDecimalSeparatorIsTheLocalesInHumanTextOnly() throws {
        var state = SampleStates.weather()
        var forecast = SampleStates.forecast()
        forecast.seaLevelPressure = 30.556
        forecast.units.seaLevelPressure = "inHg"
        var tendency = PressureTendency(change: 1.3, source: .hourly)
        (tendency.change, tendency.unit) = (0.04, "inHg")
        forecast.pressureTendency = tendency
        state.weather?.forecast = forecast
        let comma = Self.locale([:], decimal: ",")
        let item = BarItem(state: state, now: SampleStates.now, locale: comma)
        let tooltip = item.tooltip.joined(separator: "\n")
        #expect(tooltip.contains("Pressure 30,56 inHg, rising +0,04 inHg/3h"), "\(tooltip)")
        #expect(tooltip.contains("(20%, 0,4 mm)"), "\(tooltip)")
        #expect(tooltip.contains("(49.12,12.2)"), "coordinates as published: \(tooltip)")
        let template = try Template("{pressure} {pressureTendency} {latitude},{longitude}")
        #expect(
            template.render(Placeholder.values(state, now: SampleStates.now, icons: .emoji, locale: comma))
                == "30,56 inHg rising +0,04 inHg/3h 49.12,12.2")
        // The waybar line is JSON whose members keep their types: the separator is only inside texts.
        let line = WaybarFormat.line(item)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["percentage"] as? Int == 72)
        #expect((object["tooltip"] as? String)?.contains("30,56 inHg") == true)
        // The point stays the point in English.
        #expect(BarItem(state: state, now: SampleStates.now).tooltip.contains { $0.contains("30.56 inHg") })
    }

    @Test func numbersTakeTheSeparatorAndNothingElseChanges() {
        let comma = Self.locale([:], decimal: ",")
        #expect(comma.number("30.56") == "30,56")
        #expect(comma.number("-1.3") == "-1,3")
        #expect(comma.number("1035") == "1035")
        #expect(UserLocale.english.number("30.56") == "30.56")
    }
}
