import Testing
import WundercastModel

@Suite struct BackoffTests {
    @Test func doublesUpToTheCap() {
        let backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(2))
        let delays = (1...6).map { backoff.delay(attempt: $0) }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
    }

    @Test func neverZeroNorAboveTheCap() {
        let zero = Backoff(initial: .zero, maximum: .seconds(1))
        #expect(zero.delay(attempt: 1) == .milliseconds(1))
        #expect(zero.delay(attempt: 2) == .milliseconds(2))
        let inverted = Backoff(initial: .seconds(5), maximum: .seconds(1))
        #expect(inverted.delay(attempt: 1) == .seconds(1))
        #expect(Backoff(initial: .seconds(5), maximum: .seconds(600)).delay(attempt: 1000) == .seconds(600))
    }
}
