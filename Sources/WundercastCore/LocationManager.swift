import Synchronization

/// The book's `CLLocationManager+Rx` on Linux: one shared, authorization-gated stream of
/// fixes from a ``FixSource``.
///
/// - Authorization is an ``ObservableValue``: every reader starts with its current value.
/// - Fixes flow only while the status is authorized *and* someone reads ``locations()``:
///   the source is opened by the first reader and released by the last (RxSwift's `share`);
///   a change to a not-authorized status releases it at once, and back reopens it.
/// - Fixes worse than `maxHorizontalError` metres are dropped here.
public final class LocationManager: Sendable {
    /// Why ``currentLocation(timeout:clock:)`` failed.
    public enum LocationError: Error, Sendable, Equatable {
        /// The status did not allow the GPS during the whole wait.
        case notAuthorized(AuthorizationStatus)
        /// Authorized, but no fix good enough arrived in time.
        case timedOut(after: Duration)
        /// The waiting task was cancelled.
        case cancelled
    }

    public let authorization: ObservableValue<AuthorizationStatus>
    let source: any FixSource
    let maxHorizontalError: Double
    let logger: Logger

    private struct State {
        var readers: [Int: AsyncStream<Fix>.Continuation] = [:]
        var nextID = 0
        var pump: Task<Void, Never>?
        var closed = false
    }
    private let state = Mutex(State())
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    public init(
        source: any FixSource, authorization: ObservableValue<AuthorizationStatus>, maxHorizontalError: Double,
        logger: Logger = .discard
    ) {
        self.source = source
        self.authorization = authorization
        self.maxHorizontalError = maxHorizontalError
        self.logger = logger
        let statuses = authorization.values()
        let task = Task { [weak self] in
            for await _ in statuses {
                guard let self else { return }
                self.reconcile()
            }
        }
        watcher.withLock { $0 = task }
    }

    /// Whether the source is open now (a reader is there and the status allows it).
    public var isSourceOpen: Bool { state.withLock { $0.pump != nil } }

    /// Accepted fixes, while authorized, until the reader stops. Each call is one reader of
    /// the one shared source. A reader that falls behind by more than 1024 fixes (minutes of
    /// a 5 Hz receiver) loses the oldest ones.
    public func locations() -> AsyncStream<Fix> {
        let (stream, continuation) = AsyncStream<Fix>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id: Int? = state.withLock { s in
            guard !s.closed else { return nil }
            defer { s.nextID += 1 }
            s.readers[s.nextID] = continuation
            return s.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.state.withLock { $0.readers.removeValue(forKey: id) }
            self.reconcile()
        }
        reconcile()
        return stream
    }

    /// The first good fix after the gate opens (the book's `getCurrentLocation()`, `take(1)`),
    /// waiting at most `timeout` on `clock`. Its reader is released as soon as it returns,
    /// so the source closes again if nobody else reads (`do(onDispose:)`).
    /// Throws ``LocationError``.
    public func currentLocation<C: Clock>(timeout: Duration, clock: C) async throws(LocationError) -> Fix
    where C.Duration == Swift.Duration {
        let stream = locations()
        let result: Result<Fix, LocationError> = await withTaskGroup(of: Result<Fix, LocationError>?.self) { group in
            group.addTask {
                for await fix in stream { return .success(fix) }
                return nil
            }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                } catch {
                    return nil
                }
                let status = self.authorization.value
                return .failure(status.isAuthorized ? .timedOut(after: timeout) : .notAuthorized(status))
            }
            var first: Result<Fix, LocationError>? = nil
            for await outcome in group {
                if let outcome {
                    first = outcome
                    break
                }
            }
            group.cancelAll()
            return first ?? .failure(.cancelled)
        }
        return try result.get()
    }

    /// Releases the source and finishes every reader (shutdown).
    public func close() {
        watcher.withLock { $0?.cancel() }
        let (readers, pump) = state.withLock { s in
            s.closed = true
            defer {
                s.readers.removeAll()
                s.pump = nil
            }
            return (Array(s.readers.values), s.pump)
        }
        pump?.cancel()
        for reader in readers { reader.finish() }
    }

    /// Opens or releases the source to match readers and authorization.
    private func reconcile() {
        let toCancel: Task<Void, Never>? = state.withLock { s in
            // Read under the lock, so that a reconcile that saw an older status cannot run
            // after one that saw the newer, and reopen the source while it is not allowed.
            let status = authorization.value
            let shouldRun = !s.closed && status.isAuthorized && !s.readers.isEmpty
            if shouldRun && s.pump == nil {
                let events = source.events()
                s.pump = Task { [weak self] in
                    for await case .fix(let fix) in events {
                        guard let self else { return }
                        self.deliver(fix)
                    }
                }
                logger.debug("location source opened (\(status.configName))")
                return nil
            }
            if !shouldRun, let pump = s.pump {
                s.pump = nil
                return pump
            }
            return nil
        }
        if let toCancel {
            toCancel.cancel()
            logger.debug("location source released")
        }
    }

    private func deliver(_ fix: Fix) {
        guard fix.isWithin(horizontalError: maxHorizontalError), authorization.value.isAuthorized else { return }
        let readers = state.withLock { Array($0.readers.values) }
        for reader in readers { reader.yield(fix) }
    }
}
