/// The time-out argument of `poll(2)` and `epoll_wait(2)` for a deadline on `ContinuousClock`.
enum PollTimeout {
    /// Whole milliseconds until `deadline`, rounded up (a wait never ends early), 0 once it has
    /// passed; a deadline weeks away gives the longest wait (looked at again then: no overflow).
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
