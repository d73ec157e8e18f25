#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastModel
import WundercastPOSIX

/// Whether the wall clock is known to be right, for the age of weather kept from before a
/// restart. A machine without a real-time clock (a Raspberry Pi) boots with a wrong clock; it
/// is trusted once
/// - the clock-sync file exists (`[Cache] ClockSyncFile=`, systemd-timesyncd's
///   `/run/systemd/timesync/synchronized`, which it creates on synchronisation), or
/// - the kernel says so: `adjtimex(2)` returns `TIME_OK` (what chrony and ntpd maintain, and
///   `timedatectl` reads), or
/// - a GPS fix's own time agrees with the wall clock (``confirms(_:)``), or
/// - no clock-sync file is configured (the clock is always trusted).
final class ClockSync: Sendable {
    /// The file whose existence means "synchronised"; `nil`: always trusted.
    let file: String?
    /// The kernel's answer (``WundercastPOSIX/KernelClock/state()``; tests inject one).
    private let kernelState: @Sendable () -> Int32?
    private let confirmed = Atomic<Bool>(false)

    /// How often ``ClockSyncWatch`` asks the kernel again (it has no notification for it).
    static let kernelInterval: Duration = .seconds(30)

    /// How far a fix's GPS time may be from the wall-clock time it was received at to confirm
    /// the clock: GPS time is exact, and the delay from receiver to daemon is under a second;
    /// a wrong clock (or a replayed log) is off by far more.
    static let tolerance: TimeInterval = 30

    init(file: String?, kernelState: @escaping @Sendable () -> Int32? = KernelClock.state) {
        self.file = file
        self.kernelState = kernelState
    }

    /// Synchronised now (asks the file system and the kernel each time: no state to go stale).
    var isSynchronized: Bool {
        guard let file else { return true }
        return confirmed.load(ordering: .acquiring) || ProcessControl.exists(file) || kernelSays
    }

    /// `adjtimex(2)` returns `TIME_OK` now.
    var kernelSays: Bool { KernelClock.isSynchronized(state: kernelState()) }

    /// Takes the clock as right from now on (the file appeared, or GPS time agreed).
    func markSynchronized() {
        confirmed.store(true, ordering: .releasing)
    }

    /// Whether `state` carries a current GPS fix whose own time agrees with the wall-clock
    /// time the daemon received it at (within ``tolerance``).
    static func confirms(_ state: WeatherState) -> Bool {
        guard let location = state.location, location.source == .gpsd, location.status == .current,
            let fixTime = location.time, let received = location.receivedAt
        else { return false }
        return abs(fixTime.timeIntervalSince(received)) <= tolerance
    }
}
