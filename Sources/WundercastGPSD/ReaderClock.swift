import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The reader thread's time, on the clock given to ``GPSDFixSource``: how long since the
/// clock's origin, and sleeping until an instant or until the consumer stops.
///
/// The reader runs on its own pthread (libgps is blocking C), never on Swift's cooperative
/// pool, so sleeping blocks that thread. Tests give a manual clock, on which the reader's
/// back-off waits are sleepers the test sees and advances past (no test waits 30 s).
struct ReaderClock: Sendable {
    /// Time since the clock's origin.
    let now: @Sendable () -> Duration
    /// Blocks until `now() >= deadline` or until `stop` is requested (looked at at least every
    /// `slice`).
    let sleep: @Sendable (_ deadline: Duration, _ stop: StopFlag, _ slice: Duration) -> Void

    /// The monotonic clock, slept on with `nanosleep` in slices.
    static let continuous: ReaderClock = {
        let clock = ContinuousClock()
        let origin = clock.now
        let now: @Sendable () -> Duration = { origin.duration(to: clock.now) }
        return ReaderClock(now: now) { deadline, stop, slice in
            while !stop.isRequested {
                let left = deadline - now()
                if left <= .zero { return }
                let (seconds, attoseconds) = min(left, slice).components
                var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                _ = nanosleep(&request, nil)
            }
        }
    }()

    /// Any clock: a sleep is a task sleeping on `clock`, which the reader thread waits for on a
    /// semaphore, looking at the stop flag every `slice`; a stop cancels the task.
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { deadline, stop, slice in
            let woken = DispatchSemaphore(value: 0)
            let sleeper = Task {
                try? await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil)
                woken.signal()
            }
            let (seconds, attoseconds) = slice.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            while woken.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                if stop.isRequested {
                    sleeper.cancel()
                    woken.wait()  // a cancelled sleep ends at once
                    return
                }
            }
        }
    }

    private init(
        now: @escaping @Sendable () -> Duration,
        sleep: @escaping @Sendable (Duration, StopFlag, Duration) -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }
}
