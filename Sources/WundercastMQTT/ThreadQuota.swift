import Synchronization

/// How many threads of a kind may run at once, process-wide.
final class ThreadQuota: Sendable {
    private let running = Mutex(0)
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place: `false` when all are taken.
    func startOne() -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives the place back.
    func ended() { running.withLock { $0 = max(0, $0 - 1) } }
}
