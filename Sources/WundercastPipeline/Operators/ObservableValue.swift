import Synchronization

/// A value that changes over time and that any number of readers observe: each new reader
/// first receives the current value (the book's `startWith`), then every later change
/// (RxSwift's `BehaviorSubject`, on `AsyncStream`).
///
/// A reader that falls behind keeps only the newest `bufferSize` values. Cancelling the
/// reading task or dropping the stream unsubscribes it. ``finish()`` ends every stream.
///
/// Deliveries happen under the lock (so that readers see changes in the order they were
/// made); a stream's `onTermination` therefore must not take that lock: it runs while
/// `Task.cancel()` holds the task's status lock, which a delivery under our lock may wait for
/// (a lock-order deadlock). A reader that ends only raises its ``Reader/ended`` flag; the
/// next call that holds the lock drops it.
public final class ObservableValue<Value: Sendable>: Sendable {
    /// One reader's continuation and whether its stream ended.
    private final class Reader: Sendable {
        let continuation: AsyncStream<Value>.Continuation
        let ended = Atomic(false)
        init(_ continuation: AsyncStream<Value>.Continuation) { self.continuation = continuation }
    }
    private struct State {
        var value: Value
        var readers: [Int: Reader] = [:]
        var nextID = 0
        var finished = false

        /// The readers still reading (the ended ones are dropped).
        mutating func live() -> [AsyncStream<Value>.Continuation] {
            readers = readers.filter { !$0.value.ended.load(ordering: .acquiring) }
            return readers.values.map(\.continuation)
        }
    }
    private let state: Mutex<State>
    private let bufferSize: Int

    public init(_ initial: Value, bufferSize: Int = 64) {
        self.state = Mutex(State(value: initial))
        self.bufferSize = bufferSize
    }

    /// The current value.
    public var value: Value { state.withLock { $0.value } }

    /// Number of current readers.
    public var readerCount: Int { state.withLock { $0.live().count } }

    /// Replaces the value and delivers it to every reader.
    public func send(_ newValue: Value) {
        let readers = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            s.value = newValue
            return s.live()
        }
        for reader in readers { reader.yield(newValue) }
    }

    /// Changes the value with `transform` and delivers the result, atomically with respect
    /// to other calls of `update` and `send`. Returns the new value.
    @discardableResult
    public func update(_ transform: (inout Value) -> Void) -> Value {
        // Yield inside the lock so that readers see changes in the order they were made.
        state.withLock { s in
            transform(&s.value)
            for reader in s.live() { reader.yield(s.value) }
            return s.value
        }
    }

    /// The current value, then each change, until the reader stops or ``finish()``.
    public func values() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        let reader = Reader(continuation)
        // Set before the reader is published: a stream that ends at once is dropped too.
        continuation.onTermination = { [weak reader] _ in reader?.ended.store(true, ordering: .releasing) }
        let added: Bool = state.withLock { s in
            guard !s.finished else { return false }
            _ = s.live()
            s.readers[s.nextID] = reader
            s.nextID += 1
            continuation.yield(s.value)
            return true
        }
        if !added { continuation.finish() }
        return stream
    }

    /// Ends every reader's stream; later readers get an empty stream.
    public func finish() {
        let readers = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            s.finished = true
            defer { s.readers.removeAll() }
            return s.readers.values.map(\.continuation)
        }
        for reader in readers { reader.finish() }
    }
}

extension ObservableValue where Value: Equatable {
    /// Like ``update(_:)`` but delivers nothing when the value did not change.
    /// Returns whether it changed.
    @discardableResult
    public func updateIfChanged(_ transform: (inout Value) -> Void) -> Bool {
        state.withLock { s in
            var copy = s.value
            transform(&copy)
            guard copy != s.value else { return false }
            s.value = copy
            for reader in s.live() { reader.yield(copy) }
            return true
        }
    }
}
