/// The one rule for a service whose work a reload replaces (the weather pipeline, the MQTT
/// publisher): each job of `jobs` runs as a child task of the caller's task group; a new job
/// first ends the running one (its `stop` stream finishes) and awaits it, so two never run at
/// once. Cancelling the caller finishes `jobs` (`finish`), ends the running job and awaits it.
enum OneAtATime {
    static func run<Job: Sendable>(
        _ jobs: AsyncStream<Job>, finish: @escaping @Sendable () -> Void,
        serve: @escaping @Sendable (Job, _ stop: AsyncStream<Void>) async -> Void
    ) async {
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                var stopRunning: AsyncStream<Void>.Continuation?
                for await job in jobs {
                    if let stopRunning {
                        stopRunning.finish()
                        await group.next()  // the old one ended
                    }
                    let (stop, stopSink) = AsyncStream<Void>.makeStream()
                    stopRunning = stopSink
                    group.addTask { await serve(job, stop) }
                }
                stopRunning?.finish()
                await group.waitForAll()
            }
        } onCancel: {
            finish()
        }
    }

    /// Runs `work` until `stop` ends or the task is cancelled, then cancels it and awaits it.
    static func run(_ work: @escaping @Sendable () async -> Void, until stop: AsyncStream<Void>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            group.addTask { for await _ in stop {} }
            await group.next()  // stopped, or the work ended by itself
            group.cancelAll()
        }
    }
}
