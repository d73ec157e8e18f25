import WundercastSupport
import WundercastPipeline

import WundercastPOSIX

/// Waits, while the wall clock is not known to be right, for the first sign that it is: the
/// clock-sync file appearing (inotify, no polling), the kernel reporting `TIME_OK` (asked every
/// ``ClockSync/kernelInterval`` on `sleeper`: it sends no notification), or a GPS fix whose time
/// agrees with the clock (``ClockSync/confirms(_:)``). Then marks the clock synchronised, logs it once, and —
/// when the weather kept from before the restart was fetched by a synchronised clock and is
/// still shown — makes its age known (``WundercastPipeline/StateStore/ageBecameKnown()``), and
/// says so in ``done``. Then waits for the daemon's stop, like every service (one that ended
/// by itself would stop the daemon: ``ServiceGroup``).
struct ClockSyncWatch: DaemonService {
    let name = "clock sync"
    let store: StateStore
    let clock: ClockSync
    /// Whether the restored weather's `fetchedAt` was taken by a synchronised clock (and is
    /// not in the future): only then does a synchronised clock tell its true age.
    let restoredAgeTrusted: Bool
    /// The reactor, which reads the clock-sync file's inotify descriptor.
    let loop: EventLoop
    let logger: Logger
    /// Waits between two questions to the kernel (tests pass one that returns at once).
    var sleeper: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// `true` once the clock is taken as synchronised and the restored age handled.
    let done = ObservableValue(false)

    private enum Sign: Sendable {
        case file
        case kernel
        case gps
        case none
    }

    func run() async {
        if !clock.isSynchronized {
            guard await waitForSynchronization() else { return }
        }
        // Also when the clock became right between start-up and now.
        if restoredAgeTrusted { store.ageBecameKnown() }
        done.send(true)
        // Its work is done; a service ends only when the daemon stops (``ServiceGroup``).
        await waitUntilCancelled()
    }

    /// Waits for the first sign; `true` once the clock is taken as synchronised.
    private func waitForSynchronization() async -> Bool {
        let (store, clock, loop) = (self.store, self.clock, self.loop)
        let sign: Sign = await withTaskGroup(of: Sign.self) { group in
            if let file = clock.file {
                group.addTask { await FileAppearance.wait(for: file, on: loop) ? .file : .none }
            }
            group.addTask {
                for await state in store.states() where ClockSync.confirms(state) { return .gps }
                return .none
            }
            group.addTask { [sleeper] in
                while !clock.kernelSays {
                    do { try await sleeper(ClockSync.kernelInterval) } catch { return .none }
                }
                return .kernel
            }
            // The first sign wins; a watcher that could not watch (`.none`) leaves it to the others.
            var result = Sign.none
            while let next = await group.next() {
                if next != .none {
                    result = next
                    break
                }
            }
            group.cancelAll()
            return result
        }
        guard sign != .none else { return false }
        clock.markSynchronized()
        let how =
            switch sign {
            case .file: "\(clock.file ?? "the clock-sync file") exists"
            case .kernel: "the kernel reports TIME_OK"
            case .gps, .none: "a GPS fix's time agrees with it"
            }
        logger.info("the wall clock is synchronised (\(how))")
        return true
    }
}
