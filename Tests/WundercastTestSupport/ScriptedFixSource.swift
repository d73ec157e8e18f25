import Synchronization
import WundercastModel

/// A ``FixSource`` the test feeds by hand; it counts how often it was opened and released,
/// and how many streams are open now.
public final class ScriptedFixSource: FixSource {
    private struct State {
        var streams: [Int: AsyncStream<FixSourceEvent>.Continuation] = [:]
        var nextID = 0
    }
    private let state = Mutex(State())
    /// Times `events()` was called and times a stream was released, in all: what the waits
    /// wait on. Counted after the stream is in (or out of) `streams`, and only ever up.
    private let opened = Observed(0)
    private let released = Observed(0)

    public init() {}

    public func events() -> AsyncStream<FixSourceEvent> {
        let (stream, continuation) = AsyncStream<FixSourceEvent>.makeStream()
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.streams[id] = continuation
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.state.withLock { _ = $0.streams.removeValue(forKey: id) }
                self.released.update { $0 += 1 }
            }
        }
        opened.update { $0 += 1 }
        return stream
    }

    /// Delivers `fix` to every open stream.
    public func send(_ fix: Fix) { send(event: .fix(fix)) }

    /// Delivers a condition change to every open stream.
    public func send(_ condition: SourceCondition) { send(event: .condition(condition)) }

    /// Delivers `event` to every open stream.
    public func send(event: FixSourceEvent) {
        for c in state.withLock({ Array($0.streams.values) }) { c.yield(event) }
    }

    /// Times `events()` was called.
    public var openCount: Int { opened.value }
    /// Times a stream was released by its reader.
    public var releaseCount: Int { released.value }
    /// Streams open now.
    public var openStreams: Int { state.withLock { $0.streams.count } }

    /// Suspends until streams were released `count` times in all. Throws ``DeadlineExceeded``
    /// after `timeout`, `CancellationError` when the waiting task is cancelled.
    public func waitForRelease(count: Int = 1, timeout: Duration = .seconds(20)) async throws {
        try await released.wait(timeout: timeout, "\(count) releases of a fix stream") {
            $0 >= count
        }
    }

    /// Suspends until `events()` has been called at least `count` times in all. Throws
    /// ``DeadlineExceeded`` after `timeout`, `CancellationError` when the waiting task is cancelled.
    public func waitForOpen(count: Int = 1, timeout: Duration = .seconds(20)) async throws {
        try await opened.wait(timeout: timeout, "\(count) opens of a fix stream") {
            $0 >= count
        }
    }
}

/// A fix at `latitude`,`longitude`, 3D, with an optional horizontal error.
public func makeFix(_ latitude: Double, _ longitude: Double, eph: Double? = nil) -> Fix {
    Fix(coordinate: Coordinate(latitude: latitude, longitude: longitude), mode: .threeD, horizontalError: eph)
}
