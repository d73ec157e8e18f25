import Testing
import WundercastPipeline
import WundercastTestSupport

@Suite struct FixAgeTests {
    let clock = ManualClock()

    @Test func aFixIsCurrentUntilMaxFixAge() {
        var age = FixAge<ManualClock.Instant>(maxFixAge: .seconds(120))
        #expect(age.problem(at: clock.at(.zero)) == .noFix(never: true))
        age.fix(at: clock.at(.seconds(10)))
        #expect(age.problem(at: clock.at(.seconds(129))) == nil)
        #expect(age.deadline(after: clock.at(.seconds(129))) == clock.at(.seconds(130)))
        #expect(age.deadline(after: clock.at(.seconds(130))) == nil)
        #expect(age.problem(at: clock.at(.seconds(130))) == .noFix(never: false))
    }

    /// A reload's new pipeline goes on from the old one's newest fix: the position is not lost
    /// for an instant; a new source starts without the old one's condition.
    @Test func aReloadedPipelineContinuesFromTheNewestFix() {
        var old = FixAge<ManualClock.Instant>(maxFixAge: .seconds(120))
        old.fix(at: clock.at(.seconds(10)))
        old.condition(.deviceGone(path: "/dev/ttyUSB0"))
        var same = FixAge<ManualClock.Instant>(maxFixAge: .seconds(60))
        same.continuing(old, sameSource: true)
        #expect(same.problem(at: clock.at(.seconds(20))) == .deviceGone(path: "/dev/ttyUSB0"))
        var other = FixAge<ManualClock.Instant>(maxFixAge: .seconds(60))
        other.continuing(old, sameSource: false)
        #expect(other.problem(at: clock.at(.seconds(20))) == nil)
        // The new MaxFixAge applies to the old fix.
        #expect(other.problem(at: clock.at(.seconds(70))) == .noFix(never: false))
    }

    @Test func unreachableAndDeviceGoneAreProblemsUntilTheNextFix() {
        var age = FixAge<ManualClock.Instant>(maxFixAge: .seconds(120))
        age.fix(at: clock.at(.zero))
        age.condition(.unreachable(reason: "lost gpsd"))
        #expect(age.problem(at: clock.at(.seconds(1))) == .unreachable(reason: "lost gpsd"))
        #expect(age.deadline(after: clock.at(.seconds(1))) == nil)
        age.condition(.connected)
        #expect(age.problem(at: clock.at(.seconds(2))) == nil)
        age.condition(.deviceGone(path: "/dev/ttyUSB0"))
        #expect(age.problem(at: clock.at(.seconds(3))) == .deviceGone(path: "/dev/ttyUSB0"))
        age.fix(at: clock.at(.seconds(4)))
        #expect(age.problem(at: clock.at(.seconds(5))) == nil)
    }
}
