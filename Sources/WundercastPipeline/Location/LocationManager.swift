import Synchronization
import WundercastModel

/// The book's `CLLocationManager+Rx` on Linux: one shared stream of location updates from a
/// ``FixSource``, and the authorization status that gates it.
///
/// - ``authorization`` is an ``ObservableValue``: every reader starts with its current value
///   (the book's `startWith`).
/// - ``updates()``: the source is opened by the first reader and released by the last
///   (RxSwift's `share`). Fixes worse than `maxHorizontalError` metres are dropped here.
///   It does not look at the authorization: its reader (``WeatherService``) reads it only
///   under an authorized status and stops reading — awaited — when the status changes.
/// - ``currentLocation(timeout:clock:)``: the book's `getCurrentLocation()`, gated here.
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
    /// Largest accepted horizontal error, metres (`MaxHorizontalError=`).
    public let maxHorizontalError: Double

    private struct State {
        var readers: [Int: AsyncStream<FixSourceEvent>.Continuation] = [:]
        var nextID = 0
        var pump: Task<Void, Never>?
        var closed = false
        /// The pump ``close()`` cancelled (``ended()`` awaits it).
        var stopped: Task<Void, Never>?
    }
    private let state = Mutex(State())

    public init(source: any FixSource, authorization: ObservableValue<AuthorizationStatus>, maxHorizontalError: Double)
    {
        self.source = source
        self.authorization = authorization
        self.maxHorizontalError = maxHorizontalError
    }

    /// Whether the source is open now (someone reads ``updates()``).
    public var isSourceOpen: Bool { state.withLock { $0.pump != nil } }

    /// Fixes within `maxHorizontalError` and the source's condition changes, until the reader
    /// stops. Each call is one reader of the one shared source. A reader that falls behind by
    /// more than 64 updates loses the oldest (a position is only worth its newest value).
    ///
    /// Unscoped: the source is released when the stream ends, without waiting for it (the
    /// pump's end). The pipeline reads through ``reading(_:)``, which waits.
    public func updates() -> AsyncStream<FixSourceEvent> {
        let (stream, continuation) = AsyncStream<FixSourceEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        guard let id = subscribe(continuation) else { return stream }
        continuation.onTermination = { [weak self] _ in _ = self?.release(id) }
        return stream
    }

    /// Runs `body` as one reader of ``updates()``; returns what it returns once the reader is
    /// released and, when it was the last one, the source's pump has ended (its events stream
    /// closed: for gpsd, the reader told to disconnect). So a reader that leaves does not
    /// leave the pump behind it.
    public func reading<R>(_ body: (AsyncStream<FixSourceEvent>) async -> R) async -> R {
        let (stream, continuation) = AsyncStream<FixSourceEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = subscribe(continuation)
        let result = await body(stream)
        continuation.finish()
        if let id, let pump = release(id) { await pump.value }
        return result
    }

    /// Adds a reader (opening the source for the first); `nil` after ``close()`` (the reader
    /// is finished at once).
    private func subscribe(_ continuation: AsyncStream<FixSourceEvent>.Continuation) -> Int? {
        let id: Int? = state.withLock { s in
            guard !s.closed else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.readers[id] = continuation
            if s.pump == nil {
                let events = source.events()
                // Unstructured: the pump is shared by every reader and outlives each; the reader
                // that stops it awaits its end (``reading(_:)``, ``ended()``).
                s.pump = Task { [weak self] in
                    for await event in events {
                        guard let self else { return }
                        self.deliver(event)
                    }
                }
            }
            return id
        }
        if id == nil { continuation.finish() }
        return id
    }

    /// The first fix within `maxHorizontalError` after the gate opens (the book's
    /// `authorization.startWith(current).filter(authorized).flatMap(updates).take(1)`), waiting
    /// at most `timeout` on `clock`. Its reader is released as soon as it returns, so the
    /// source closes again if nobody else reads (`do(onDispose:)`). Throws ``LocationError``.
    public func currentLocation<C: Clock>(timeout: Duration, clock: C) async throws(LocationError) -> Fix
    where C.Duration == Swift.Duration {
        let statuses = authorization.values()
        let result: Result<Fix, LocationError> = await withTaskGroup(of: Result<Fix, LocationError>?.self) { group in
            group.addTask {
                for await status in statuses where status.allows(source: .gpsd) {
                    return await self.reading { updates -> Result<Fix, LocationError>? in
                        for await case .fix(let fix) in updates {
                            return .success(fix)
                        }
                        return nil
                    }
                }
                return nil
            }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                } catch {
                    return nil
                }
                let status = self.authorization.value
                return .failure(status.allows(source: .gpsd) ? .timedOut(after: timeout) : .notAuthorized(status))
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

    /// Releases the source and finishes every reader (shutdown); returns at once (``ended()``
    /// waits for the pump).
    public func close() {
        let (readers, pump) = state.withLock { s in
            s.closed = true
            defer {
                s.readers.removeAll()
                s.pump = nil
            }
            s.stopped = s.pump
            return (Array(s.readers.values), s.pump)
        }
        pump?.cancel()
        for reader in readers { reader.finish() }
    }

    /// After ``close()``: returns once the source's pump has ended.
    public func ended() async {
        await state.withLock { $0.stopped }?.value
    }

    /// Whether `fix` is good enough to use (`eph` within `MaxHorizontalError`).
    func accepts(_ fix: Fix) -> Bool {
        fix.isWithin(horizontalError: maxHorizontalError)
    }

    /// Removes reader `id`; returns the pump it stopped (cancelled) when it was the last one.
    private func release(_ id: Int) -> Task<Void, Never>? {
        let pump: Task<Void, Never>? = state.withLock { s in
            guard s.readers.removeValue(forKey: id) != nil, s.readers.isEmpty, let pump = s.pump else { return nil }
            s.pump = nil
            return pump
        }
        pump?.cancel()
        return pump
    }

    private func deliver(_ event: FixSourceEvent) {
        if case .fix(let fix) = event, !accepts(fix) { return }
        let readers = state.withLock { Array($0.readers.values) }
        for reader in readers { reader.yield(event) }
    }
}
