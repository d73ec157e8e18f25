/// A child task of a task group that can be cancelled alone (a task group cancels only all of
/// its children at once): the refresh session's fetch and timer. ``cancel()`` cancels the work;
/// the group still awaits its end, so nothing of it outlives the group's scope.
struct CancellableChild: Sendable {
    private let trigger: AsyncStream<Never>.Continuation

    fileprivate init(_ trigger: AsyncStream<Never>.Continuation) { self.trigger = trigger }

    /// Cancels the work (at once, or when it is started); returns at once. Idempotent.
    func cancel() { trigger.finish() }
}

extension DiscardingTaskGroup {
    /// Adds `work` as a child task that ``CancellableChild/cancel()`` cancels alone. The work
    /// is also cancelled with the group.
    mutating func addCancellableTask(_ work: @escaping @Sendable () async -> Void) -> CancellableChild {
        let (signal, trigger) = AsyncStream<Never>.makeStream()
        addTask {
            await withTaskGroup(of: Void.self) { pair in
                pair.addTask { await work() }
                // Ends when the handle is cancelled (the stream finishes) or the pair is.
                pair.addTask { for await _ in signal {} }
                await pair.next()
                pair.cancelAll()
            }
        }
        return CancellableChild(trigger)
    }
}
