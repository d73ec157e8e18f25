import Synchronization

/// Turns a burst of events into one action: the action runs once no event came for `quiet`,
/// or `maxDelay` after the first event of the burst, whichever is first. (A link that comes
/// up brings a burst of address and route messages: one refetch, after the burst.)
///
/// Events come from any thread (``signal()``); ``run(_:)`` performs the actions until its task
/// is cancelled (a burst not yet acted on is dropped then). One ``run(_:)`` per debouncer.
public final class Debouncer<C: Clock>: Sendable where C.Duration == Swift.Duration {
    private let clock: C
    private let quiet: Duration
    private let maxDelay: Duration
    /// Events signalled so far.
    private let count = Atomic<UInt64>(0)
    private let stream: AsyncStream<Void>
    private let sink: AsyncStream<Void>.Continuation

    public init(clock: C, quiet: Duration = .seconds(1), maxDelay: Duration = .seconds(5)) {
        self.clock = clock
        self.quiet = quiet
        self.maxDelay = maxDelay
        (stream, sink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// One event (any thread; returns at once).
    public func signal() {
        count.add(1, ordering: .releasing)
        sink.yield()
    }

    /// Performs `action` once per burst, until cancelled.
    public func run(_ action: @Sendable () -> Void) async {
        var handled: UInt64 = 0
        for await _ in stream {
            var seen = count.load(ordering: .acquiring)
            // An element left from a burst already acted on.
            guard seen > handled else { continue }
            let end = clock.now.advanced(by: maxDelay)
            while true {
                let until = min(clock.now.advanced(by: quiet), end)
                do { try await clock.sleep(until: until, tolerance: nil) } catch { return }
                let latest = count.load(ordering: .acquiring)
                defer { seen = latest }
                if latest == seen || clock.now >= end { break }
            }
            handled = seen
            action()
        }
    }
}
