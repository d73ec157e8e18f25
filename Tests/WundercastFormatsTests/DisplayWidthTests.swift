import Testing
import WundercastSupport
import WundercastModel

/// ``DisplayWidth``: the terminal columns of the texts the project prints.
@Suite struct DisplayWidthTests {
    /// Every icon of every set, by day and by night: an emoji takes 2 columns (an emoji
    /// presentation sequence such as `☀️` or `🌤️`, or a character that is emoji by default such
    /// as `⛅` or `☔`); the font glyphs of `nerd` and `weather-icons` are private-use characters
    /// of one column.
    @Test(arguments: IconSet.allCases)
    func everyIconTakesItsColumns(_ set: IconSet) {
        for kind in WeatherCondition.Kind.allCases {
            for isDay in [true, false] {
                let icon = set.icon(kind, isDay: isDay)
                let expected = set == .emoji ? 2 : 1
                #expect(
                    DisplayWidth.of(icon) == expected,
                    "\(set) \(kind) day \(isDay): \(icon.unicodeScalars.map { String($0.value, radix: 16) })")
                #expect(DisplayWidth.of("-3°C " + icon) == 5 + expected)
            }
        }
    }

    /// The cases glibc's `wcwidth` gets wrong (it counts the base of `🌤️`, `🌫️`, `🌡️`, `☀️` as
    /// one column and U+FE0F as none), next to characters that are wide on their own.
    @Test(arguments: [
        ("🌤\u{FE0F}", 2), ("🌫\u{FE0F}", 2), ("🌡\u{FE0F}", 2), ("☀\u{FE0F}", 2), ("❄\u{FE0F}", 2),
        ("🌤", 1), ("☀", 1), ("⛅", 2), ("☔", 2), ("🌙", 2), ("🧊", 2), ("💨", 2),
    ])
    func emojiPresentation(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// Rows that mix wide and narrow characters, marks and joiners.
    @Test(arguments: [
        ("n/a", 3), ("-3°C ☁\u{FE0F}", 7), ("-12°C ⛅ n/a", 12), ("東京", 4), ("Ｔｏｋｙｏ", 10), ("서울", 4),
        ("e\u{301}", 1), ("Tromsø", 6), ("Tromso\u{308}", 6), ("a\u{200D}b", 2), ("\u{1F468}\u{200D}\u{1F469}", 4),
        ("1\u{FE0F}\u{20E3}", 2), ("tab\there", 7), ("", 0), ("⚠ wundercast", 12),
    ])
    func mixedRows(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text)")
    }

    @Test func paddingFillsToTheColumnAndNeverCuts() {
        #expect(DisplayWidth.padded("⛅", to: 4) == "⛅  ")
        #expect(DisplayWidth.padded("☀\u{FE0F}x", to: 4) == "☀\u{FE0F}x ")
        #expect(DisplayWidth.padded("wide text", to: 3) == "wide text")
    }
}
