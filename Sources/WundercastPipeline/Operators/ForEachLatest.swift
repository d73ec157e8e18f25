/// RxSwift's `flatMapLatest` for work: runs `body` for each element of `values`, one at a
/// time. A new element cancels the running body **and waits for it to end** before the
/// next body starts, so no work of an older element can overlap, or publish after, the
/// work of a newer one.
///
/// Cancellation: cancelling the calling task ends the iteration of `values` (an
/// `AsyncStream` ends at once), then cancels the running body and waits for it.
/// Finish: returns when `values` finishes and the last body has ended.
public func forEachLatest<Element: Sendable>(
    _ values: AsyncStream<Element>, _ body: @escaping @Sendable (Element) async -> Void
) async {
    var running: Task<Void, Never>?
    for await value in values {
        if let running {
            running.cancel()
            await running.value
        }
        running = Task { await body(value) }
    }
    running?.cancel()
    await running?.value
}

/// Suspends until the calling task is cancelled (a body of ``forEachLatest(_:_:)`` that has
/// nothing to do but must hold its place until the next element).
public func waitUntilCancelled() async {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    await withTaskCancellationHandler {
        for await _ in stream {}
    } onCancel: {
        continuation.finish()
    }
}
