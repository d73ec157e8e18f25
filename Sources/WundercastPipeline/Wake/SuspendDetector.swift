/// Tells that the machine was suspended from two of its clocks: `CLOCK_BOOTTIME` counts the
/// time spent in suspend, `CLOCK_MONOTONIC` does not, so their difference (the *offset*) grows
/// by exactly the time asleep. A plain state machine: the caller reads the offset (on the
/// watchdog's tick, and when logind says the machine resumed) and passes it in.
///
/// It also keeps one resume from being reported twice: logind's `PrepareForSleep(false)` and
/// the next tick both see the same suspend; whichever comes first reports it.
///
/// The clocks are also the evidence for logind's word: any local client can send
/// `PrepareForSleep(false)` straight to the daemon's bus connection, so a resume counts only
/// when the offset grew by ``resumeEvidence`` or more since the last reading.
public struct SuspendDetector: Sendable, Equatable {
    /// The least growth of the offset between two ticks that counts as a suspend (5 s by
    /// default: far above the drift of the two clocks, far below any real suspend).
    public let threshold: Duration
    /// The least growth of the offset that makes logind's `PrepareForSleep(false)` a resume
    /// (1 s by default: far above the noise of reading two clocks one after the other).
    public let resumeEvidence: Duration
    /// The offset at the last reading.
    private var baseline: Duration?
    /// The offset when a tick reported a suspend that logind has not reported yet.
    private var unmatchedJump: Duration?

    public init(threshold: Duration = .seconds(5), resumeEvidence: Duration = .seconds(1)) {
        self.threshold = threshold
        self.resumeEvidence = resumeEvidence
    }

    /// A tick read `offset` (`CLOCK_BOOTTIME − CLOCK_MONOTONIC`). Returns how long the machine
    /// was asleep when the offset grew by ``threshold`` or more since the last reading, else
    /// `nil`. The first reading only sets the baseline.
    public mutating func tick(offset: Duration) -> Duration? {
        defer { baseline = offset }
        guard let baseline, offset - baseline >= threshold else { return nil }
        unmatchedJump = offset
        return offset - baseline
    }

    /// logind reported a resume with the clocks at `offset`. Returns how long the machine was
    /// asleep since the last reading, or `nil` when a tick already reported this suspend or
    /// when the clocks grew by less than ``resumeEvidence`` (a suspend that failed, a repeated
    /// signal, or one forged by another client of the bus). The first reading only sets the
    /// baseline (`nil`).
    public mutating func resumed(offset: Duration) -> Duration? {
        defer { baseline = offset }
        if let jump = unmatchedJump {
            unmatchedJump = nil
            if offset - jump < threshold { return nil }
        }
        guard let baseline, offset - baseline >= resumeEvidence else { return nil }
        return offset - baseline
    }
}
