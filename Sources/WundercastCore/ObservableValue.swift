import Synchronization

/// A value that changes over time and that any number of readers observe: each new reader
/// first receives the current value (the book's `startWith`), then every later change
/// (RxSwift's `BehaviorSubject`, on `AsyncStream`).
///
/// A reader that falls behind keeps only the newest `bufferSize` values. Cancelling the
/// reading task or dropping the stream unsubscribes it. ``finish()`` ends every stream.
public final class ObservableValue<Value: Sendable>: Sendable {
    private struct State {
        var value: Value
        var readers: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
        var finished = false
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
    public var readerCount: Int { state.withLock { $0.readers.count } }

    /// Replaces the value and delivers it to every reader.
    public func send(_ newValue: Value) {
        let readers = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            s.value = newValue
            return Array(s.readers.values)
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
            for reader in s.readers.values { reader.yield(s.value) }
            return s.value
        }
    }

    /// The current value, then each change, until the reader stops or ``finish()``.
    public func values() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        let id: Int? = state.withLock { s in
            guard !s.finished else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.readers[id] = continuation
            continuation.yield(s.value)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.readers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every reader's stream; later readers get an empty stream.
    public func finish() {
        let readers = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            s.finished = true
            defer { s.readers.removeAll() }
            return Array(s.readers.values)
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
            for reader in s.readers.values { reader.yield(copy) }
            return true
        }
    }
}
