import Testing
import WundercastModel

/// The day's phase from the elongation at its two ends (``MoonPhase/init(elongationFrom:to:)``).
@Suite struct MoonPhaseTests {
    /// A day whose elongation passes 0°, 90°, 180° or 270° is named for that principal phase.
    @Test(arguments: [
        (355.0, 8.0, MoonPhase.newMoon), (-5.0, 8.0, .newMoon), (0.0, 12.0, .newMoon),
        (80.0, 92.0, .firstQuarter), (90.0, 102.0, .firstQuarter),
        (170.0, 183.5, .fullMoon), (535.0, 548.0, .fullMoon),
        (265.0, 277.0, .lastQuarter), (269.999, 281.0, .lastQuarter),
    ])
    func principalPhaseOnTheDayOfItsInstant(start: Double, end: Double, phase: MoonPhase) {
        #expect(MoonPhase(elongationFrom: start, to: end) == phase)
    }

    /// Any other day by the quarter of its elongation; an instant exactly at the day's end
    /// belongs to the next day.
    @Test(arguments: [
        (1.0, 13.0, MoonPhase.waxingCrescent), (78.0, 90.0, .waxingCrescent), (90.5, 102.0, .waxingGibbous),
        (167.0, 180.0, .waxingGibbous), (181.0, 193.0, .waningGibbous), (257.0, 269.9, .waningGibbous),
        (271.0, 283.0, .waningCrescent), (347.0, 359.99, .waningCrescent), (347.0, 360.0, .waningCrescent),
    ])
    func otherDaysByTheirQuarter(start: Double, end: Double, phase: MoonPhase) {
        #expect(MoonPhase(elongationFrom: start, to: end) == phase)
    }

    @Test func principalPhasesHaveTheirElongationAndTheOthersNone() {
        #expect(MoonPhase.allCases.compactMap(\.elongation) == [0, 90, 180, 270])
        #expect(MoonPhase.waxingGibbous.elongation == nil)
    }

    /// The names are the stable tokens of `moon.phase` and the English texts.
    @Test func tokensAndNames() {
        #expect(
            MoonPhase.allCases.map(\.rawValue) == [
                "newMoon", "waxingCrescent", "firstQuarter", "waxingGibbous", "fullMoon", "waningGibbous",
                "lastQuarter",
                "waningCrescent",
            ])
        #expect(
            MoonPhase.allCases.map(\.name) == [
                "new moon", "waxing crescent", "first quarter", "waxing gibbous", "full moon", "waning gibbous",
                "last quarter", "waning crescent",
            ])
    }
}
