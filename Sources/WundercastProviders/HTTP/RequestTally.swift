import Synchronization

/// The HTTP requests sent for one provider request: OpenWeatherMap's two (current and
/// forecast), and each redirect hop followed. ``ProviderQueue`` gives every turn a tally of its
/// own (``current``, a task-local value the HTTP client reaches through the provider's calls)
/// and counts the turn as that many requests (at least one), so `status` counts every request
/// that reached the provider.
public final class RequestTally: Sendable {
    /// The tally of the provider request the current task runs, if any.
    @TaskLocal public static var current: RequestTally?

    private let sent = Atomic<Int>(0)

    public init() {}

    /// Requests counted so far.
    public var count: Int { sent.load(ordering: .relaxed) }

    /// One more HTTP request sent (a first request or a redirect followed).
    public func countRequest() { sent.add(1, ordering: .relaxed) }
}
