import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProviders

/// A ``WeatherProvider`` whose answers the test decides: each call waits until the test
/// answers it with ``answerNext(with:)``, so the test controls ordering exactly; a cancelled
/// call ends at once with ``WeatherError/cancelled``. A call nobody answers within
/// `unansweredAfter` of real time (20 s unless told, as long as ``waitForRequests(_:timeout:)`` waits) ends with a transport failure that says so,
/// so that a test awaiting an answer that never comes fails within seconds instead of waiting
/// for its time limit (what a mutant that skips the cache does).
public final class ScriptedWeatherProvider: WeatherProvider {
    /// What happened to the requests, in order.
    public enum Event: Sendable, Equatable {
        case started(Coordinate)
        case ended(Coordinate)
    }
    public let name = "scripted"
    /// Redacted from its errors by ``ProviderQueue``.
    public let secrets: Secrets
    private struct Pending {
        var coordinate: Coordinate
        var continuation: CheckedContinuation<Result<Weather, WeatherError>, Never>
    }
    private struct State {
        var pending: [Int: Pending] = [:]
        var order: [Int] = []
        var nextID = 0
        var requested: [Coordinate] = []
        var cancelled = 0
        var log: [Event] = []
        var inFlight = 0
        var maxInFlight = 0
    }
    private let state = Mutex(State())
    /// Requests made in all, counted once each waits for its answer: what
    /// ``waitForRequests(_:timeout:)`` waits on.
    private let requestCount = Observed(0)

    /// How long a call waits for the test's answer before it fails (real time).
    public let unansweredAfter: Duration

    public init(secrets: Secrets = .none, unansweredAfter: Duration = .seconds(20)) {
        self.secrets = secrets
        self.unansweredAfter = unansweredAfter
    }

    /// Takes call `id` out of the line if it still waits (counted as cancelled when `cancelled`).
    private func take(_ id: Int, cancelled: Bool = false) -> Pending? {
        state.withLock { s -> Pending? in
            guard let p = s.pending.removeValue(forKey: id) else { return nil }
            s.order.removeAll { $0 == id }
            if cancelled { s.cancelled += 1 }
            return p
        }
    }

    /// Ends the call `id` with a failure naming the wait, if it still waits.
    private func expire(_ id: Int) {
        take(id)?.continuation.resume(
            returning: .failure(
                .transport(code: 28, message: "the scripted provider was not answered within \(unansweredAfter)")))
    }

    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        let id = state.withLock { s -> Int in
            defer { s.nextID += 1 }
            return s.nextID
        }
        let result = await withTaskCancellationHandler {
            await withTaskGroup(of: Result<Weather, WeatherError>?.self) { group in
                group.addTask { await self.waitForAnswer(id, coordinate) }
                group.addTask { [unansweredAfter] in
                    // A deadline, not a synchronisation: cancelled as soon as the answer comes.
                    guard (try? await Task.sleep(for: unansweredAfter)) != nil else { return nil }
                    self.expire(id)
                    return nil
                }
                while let next = await group.next() {
                    if let answer = next {
                        group.cancelAll()
                        return answer
                    }
                }
                return .failure(.cancelled)
            }
        } onCancel: {
            take(id, cancelled: true)?.continuation.resume(returning: .failure(.cancelled))
        }
        state.withLock { s in
            s.log.append(.ended(coordinate))
            s.inFlight -= 1
        }
        return try result.get()
    }

    /// Registers call `id` and waits for its answer (or its cancellation).
    private func waitForAnswer(_ id: Int, _ coordinate: Coordinate) async -> Result<Weather, WeatherError> {
        await withCheckedContinuation { (c: CheckedContinuation<Result<Weather, WeatherError>, Never>) in
            let cancelled = state.withLock { s -> Bool in
                s.requested.append(coordinate)
                s.log.append(.started(coordinate))
                s.inFlight += 1
                s.maxInFlight = max(s.maxInFlight, s.inFlight)
                // Cancelled before it waits: the handler below found nothing to end.
                if Task.isCancelled {
                    s.cancelled += 1
                    return true
                }
                s.pending[id] = Pending(coordinate: coordinate, continuation: c)
                s.order.append(id)
                return false
            }
            requestCount.update { $0 += 1 }
            if cancelled { c.resume(returning: .failure(.cancelled)) }
        }
    }

    /// Every request's start and end, in order.
    public var log: [Event] { state.withLock { $0.log } }
    /// The most requests that were ever in flight at once.
    public var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// Coordinates of every request so far, in order.
    public var requested: [Coordinate] { state.withLock { $0.requested } }
    /// Requests cancelled while waiting for an answer.
    public var cancelledCount: Int { state.withLock { $0.cancelled } }
    /// Requests waiting for an answer.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Suspends until `count` requests have been made in all (each waiting for its answer, or
    /// answered since). Throws ``DeadlineExceeded`` after `timeout` of real time,
    /// `CancellationError` when the waiting task is cancelled.
    public func waitForRequests(_ count: Int, timeout: Duration = .seconds(20)) async throws {
        try await requestCount.wait(timeout: timeout, "\(count) requests at the scripted provider") { $0 >= count }
    }

    /// Answers the oldest waiting request. Returns its coordinate, or `nil` when none waits.
    @discardableResult
    public func answerNext(with result: Result<Weather, WeatherError>) -> Coordinate? {
        let pending = state.withLock { s -> Pending? in
            guard let id = s.order.first else { return nil }
            s.order.removeFirst()
            return s.pending.removeValue(forKey: id)
        }
        pending?.continuation.resume(returning: result)
        return pending?.coordinate
    }
}

/// Weather with the given temperature (°C), for tests.
public func makeWeather(_ temperature: Double, code: Int = 3) -> Weather {
    Weather(temperature: temperature, relativeHumidity: 70, weatherCode: code, isDay: true, units: .requested(.metric))
}
