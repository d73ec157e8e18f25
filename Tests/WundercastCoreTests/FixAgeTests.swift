import Testing
import WundercastCore
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
