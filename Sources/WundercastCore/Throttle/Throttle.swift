import Synchronization

/// The throttle the daemon runs: a ``ThrottleStateMachine`` reading time from a `Clock`
/// (the machine's monotonic clock in the daemon, a manual clock in tests). Its memory of
/// the last emission survives the location stream being closed and reopened (when-in-use,
/// authorization changes), so `MinInterval` holds across them.
public final class Throttle<C: Clock>: Sendable where C.Duration == Swift.Duration {
    private let machine: Mutex<(machine: ThrottleStateMachine<C.Instant>, offered: Int, passed: Int)>
    private let clock: C

    public init(policy: ThrottlePolicy, clock: C) {
        self.machine = Mutex((ThrottleStateMachine(policy: policy), 0, 0))
        self.clock = clock
    }

    /// Offers `fix` now; returns why it passes, or `nil` when it is held back.
    public func admit(_ fix: Fix) -> ThrottleStateMachine<C.Instant>.Reason? {
        let now = clock.now
        return machine.withLock { state in
            state.offered += 1
            let reason = state.machine.offer(fix, at: now)
            if reason != nil { state.passed += 1 }
            return reason
        }
    }

    /// Fixes offered and passed so far (diagnostics).
    public var counts: (offered: Int, passed: Int) { machine.withLock { ($0.offered, $0.passed) } }
}
