import Synchronization
import WundercastModel

/// A ``FixSource`` the test feeds by hand; it counts how often it was opened and released,
/// and how many streams are open now.
public final class ScriptedFixSource: FixSource {
    private struct State {
        var streams: [Int: AsyncStream<FixSourceEvent>.Continuation] = [:]
        var nextID = 0
        var opened = 0
        var released = 0
        var openWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
        var releaseWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    public init() {}

    public func events() -> AsyncStream<FixSourceEvent> {
        let (stream, continuation) = AsyncStream<FixSourceEvent>.makeStream()
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            let id = s.nextID
            s.nextID += 1
            s.streams[id] = continuation
            s.opened += 1
            continuation.onTermination = { [weak self] _ in
                let waiters = self?.state.withLock { s -> [CheckedContinuation<Void, Never>] in
                    s.streams.removeValue(forKey: id)
                    s.released += 1
                    let ready = s.releaseWaiters.filter { $0.0 <= s.released }.map(\.1)
                    s.releaseWaiters.removeAll { $0.0 <= s.released }
                    return ready
                }
                for waiter in waiters ?? [] { waiter.resume() }
            }
            let ready = s.openWaiters.filter { $0.0 <= s.opened }.map(\.1)
            s.openWaiters.removeAll { $0.0 <= s.opened }
            return ready
        }
        for waiter in waiters { waiter.resume() }
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
    public var openCount: Int { state.withLock { $0.opened } }
    /// Times a stream was released by its reader.
    public var releaseCount: Int { state.withLock { $0.released } }
    /// Streams open now.
    public var openStreams: Int { state.withLock { $0.streams.count } }

    /// Suspends until streams were released `count` times in all.
    public func waitForRelease(count: Int = 1) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.released >= count { return true }
                s.releaseWaiters.append((count, c))
                return false
            }
            if ready { c.resume() }
        }
    }

    /// Suspends until `events()` has been called at least `count` times in all.
    public func waitForOpen(count: Int = 1) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.opened >= count { return true }
                s.openWaiters.append((count, c))
                return false
            }
            if ready { c.resume() }
        }
    }
}

/// A fix at `latitude`,`longitude`, 3D, with an optional horizontal error.
public func makeFix(_ latitude: Double, _ longitude: Double, eph: Double? = nil) -> Fix {
    Fix(coordinate: Coordinate(latitude: latitude, longitude: longitude), mode: .threeD, horizontalError: eph)
}
