import Synchronization

/// The redirect hops followed during one provider request: each is one more HTTP request the
/// provider saw. ``ProviderQueue`` gives every turn a tally of its own (``current``, a task-local
/// value the HTTP client reaches through the provider's calls) and adds it to its `requests`
/// count, so `status` counts every request that reached the provider (issue 14).
public final class RedirectTally: Sendable {
    /// The tally of the provider request the current task runs, if any.
    @TaskLocal public static var current: RedirectTally?

    private let hops = Atomic<Int>(0)

    public init() {}

    /// Hops counted so far.
    public var count: Int { hops.load(ordering: .relaxed) }

    /// One more redirect followed (one more request sent).
    public func countHop() { hops.add(1, ordering: .relaxed) }
}
