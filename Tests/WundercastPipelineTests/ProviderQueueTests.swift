import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// ``ProviderQueue``: the one owner of "one provider request at a time" (the refresh session
/// and the cache do not hold a second copy of it).
@Suite(.timeLimit(.minutes(1))) struct ProviderQueueTests {
    let provider = ScriptedWeatherProvider()

    /// Eight callers at once: the provider sees one request, then the next when it has ended,
    /// in arrival order; each caller gets its own answer. Without the queue's turn all eight
    /// reach the provider while the first is still unanswered.
    @Test func concurrentCallersReachTheProviderOneAtATime() async throws {
        let queue = ProviderQueue(provider)
        let callers = (1...8).map { n in
            Task { try await queue.currentWeather(at: Coordinate(latitude: Double(n), longitude: 0)) }
        }
        for n in 1...8 {
            try await provider.waitForRequests(n)
            #expect(provider.pendingCount == 1, "request \(n): one at the provider")
            let asked = try #require(provider.answerNext(with: .success(makeWeather(Double(n)))))
            #expect(provider.requested.count == n)
            _ = asked
        }
        var answers: [Double] = []
        for caller in callers { answers.append(try await caller.value.temperature ?? .nan) }
        #expect(Set(answers).count == 8)
        #expect(provider.maxInFlight == 1)
        #expect(queue.counts == (8, 0))
        for entry in provider.log.enumerated() {
            // started, ended, started, ended, …: no request starts before the one before has ended.
            if case .started = entry.element { #expect(entry.offset % 2 == 0, "\(provider.log)") }
        }
    }

    /// A caller cancelled while in line leaves it without a request; the line goes on.
    @Test func aCancelledCallerInLineMakesNoRequest() async throws {
        let queue = ProviderQueue(provider)
        let first = Task { try await queue.currentWeather(at: Coordinate(latitude: 1, longitude: 0)) }
        try await provider.waitForRequests(1)
        let second = Task { try await queue.currentWeather(at: Coordinate(latitude: 2, longitude: 0)) }
        second.cancel()
        await #expect(throws: WeatherError.cancelled) { try await second.value }
        provider.answerNext(with: .success(makeWeather(1)))
        #expect(try await first.value.temperature == 1)
        #expect(provider.requested == [Coordinate(latitude: 1, longitude: 0)])
        #expect(provider.maxInFlight == 1)
    }
}
