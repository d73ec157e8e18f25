import Synchronization

/// Runs the daemon's current ``Daemon/Pipeline`` (gpsd → location stream → weather) as a
/// service, and swaps it for a new one on a reload (``replace(with:)``): the old pipeline's
/// work is cancelled and awaited — its fetch ended, its gpsd connection closed — before the
/// new one starts, so two never publish at once. Cancelling ``run()`` ends the pipeline running.
final class PipelineRunner: DaemonService {
    let name = "weather"
    private let pipelines: AsyncStream<Daemon.Pipeline>
    private let inbox: AsyncStream<Daemon.Pipeline>.Continuation
    /// The pipeline serving now (the last one given).
    private let latest: Mutex<Daemon.Pipeline>
    /// `watch` readers connected: a new pipeline starts knowing them (when-in-use).
    private let watchers = Mutex(0)

    init(_ first: Daemon.Pipeline) {
        (pipelines, inbox) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        latest = Mutex(first)
        inbox.yield(first)
    }

    /// The pipeline serving requests now.
    var current: Daemon.Pipeline { latest.withLock { $0 } }

    /// Ends the running pipeline and starts `pipeline` in its place; returns at once.
    func replace(with pipeline: Daemon.Pipeline) {
        pipeline.service.setWatchers(watchers.withLock { $0 })
        latest.withLock { $0 = pipeline }
        inbox.yield(pipeline)
    }

    /// The number of `watch` readers changed: told to the pipeline serving now.
    func setWatchers(_ count: Int) {
        watchers.withLock { $0 = count }
        current.service.setWatchers(count)
    }

    func run() async {
        let inbox = self.inbox
        await withTaskCancellationHandler {
            var running: Task<Void, Never>?
            for await pipeline in pipelines {
                if let running {
                    running.cancel()
                    await running.value
                }
                running = Task {
                    await pipeline.service.run()
                    pipeline.locationManager.close()
                    await pipeline.gpsd.readersEnded()
                }
            }
            running?.cancel()
            await running?.value
        } onCancel: {
            inbox.finish()
        }
    }
}
