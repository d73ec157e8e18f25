import Foundation
import Testing
import WundercastModel

/// ``ISO8601Time``: the one reader of ISO 8601 times (``ZonedTime``, MET Norway, the alert
/// sources, Open-Meteo's local times); each variant only where the reader asks for it.
@Suite struct ISO8601TimeTests {
    /// 2024-07-19 10:00:00 UTC.
    static let instant = Date(timeIntervalSince1970: 1_721_383_200)

    @Test(arguments: [
        ("2024-07-19T12:00+02:00", ISO8601Time.Variants.withoutSeconds, 7200),
        ("2024-07-19T03:00:00-0700", .basicOffset, -25200), ("2024-07-19T10:00:00z", .lowercaseZ, 0),
    ])
    func aVariantIsReadOnlyWhenAsked(text: String, variant: ISO8601Time.Variants, offset: Int) {
        #expect(ISO8601Time.instant(text) == nil)
        let read = ISO8601Time.instant(text, variants: variant)
        #expect(read?.instant == Self.instant && read?.utcOffset == offset)
    }

    @Test func aFractionOnlyWhenAsked() {
        #expect(ISO8601Time.instant("2024-07-19T10:00:00.250Z") == nil)
        #expect(ISO8601Time.instant("2024-07-19T10:00:00.250Z", variants: .fraction)?.instant == Self.instant + 0.25)
    }

    /// What every reader refuses: a leap second (no `Date` has it), offsets beyond ±18 h.
    @Test(arguments: [
        "2024-07-19T10:00:60Z", "2024-07-19T10:00:00+18:01", "2024-07-19T10:00:00-19:00", "2024-07-19T10:00:00+1801",
    ])
    func refusedInAnyVariant(text: String) {
        #expect(ISO8601Time.instant(text, variants: .all) == nil)
        #expect(ISO8601Time.localSeconds(Substring(text.prefix(19))) != nil || text.contains(":60"))
    }

    @Test func localSecondsOfAWallClockTime() {
        #expect(ISO8601Time.localSeconds("2024-07-19T10:00") == 1_721_383_200)
        #expect(ISO8601Time.localSeconds("2024-07-19T10:00", withoutSeconds: false) == nil)
        #expect(ISO8601Time.localSeconds("2024-02-30T10:00") == nil)
    }
}
