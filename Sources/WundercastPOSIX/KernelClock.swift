import CTimex

/// The kernel's view of the wall clock, as `timedatectl` and chrony/ntpd see it.
public enum KernelClock {
    /// The clock state `adjtimex(2)` returns when asked with `modes = 0` (read only: nothing is
    /// set): `TIME_OK` (0), `TIME_INS`/`TIME_DEL` (a leap second is due), `TIME_OOP`,
    /// `TIME_WAIT`, or `TIME_ERROR` (5: not synchronised, `STA_UNSYNC`); `nil` when the call
    /// fails.
    public static func state() -> Int32? {
        var timex = CTimex.timex()
        timex.modes = 0
        let state = adjtimex(&timex)
        return state < 0 ? nil : state
    }

    /// `adjtimex(2)`'s state means synchronised: `TIME_OK`.
    public static func isSynchronized(state: Int32?) -> Bool {
        state == TIME_OK
    }

    /// `adjtimex(2)`'s states, for tests that inject the kernel's answer.
    public static let timeOK = TIME_OK
    public static let timeError = TIME_ERROR
}
