import Synchronization

/// Runs the daemon's current ``Daemon/Pipeline`` (gpsd → location stream → weather) as a
/// service, and swaps it for a new one on a reload (``replace(with:)``): the old pipeline's
/// work is cancelled and awaited — its fetch ended, its gpsd connection closed — before the
/// new one starts, so two never publish at once. Each pipeline runs as a child task of
/// ``run()`` (a task group), which a new pipeline or the end of ``run()`` stops. Cancelling
/// ``run()`` ends the pipeline running.
final class PipelineRunner: DaemonService {
    let name = "weather"
    private let pipelines: AsyncStream<Daemon.Pipeline>
    private let inbox: AsyncStream<Daemon.Pipeline>.Continuation
    /// The one owner of which pipeline serves and how many `watch` readers it has: a new
    /// pipeline is published and told the count in one critical section, and a new count is
    /// kept and told to the pipeline serving then in another, so no pipeline misses a count.
    private let serving: Mutex<(pipeline: Daemon.Pipeline, watchers: Int)>

    init(_ first: Daemon.Pipeline) {
        (pipelines, inbox) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        serving = Mutex((first, 0))
        inbox.yield(first)
    }

    /// The pipeline serving requests now.
    var current: Daemon.Pipeline { serving.withLock { $0.pipeline } }

    /// Ends the running pipeline and starts `pipeline` in its place; returns at once.
    func replace(with pipeline: Daemon.Pipeline) {
        serving.withLock { serving in
            pipeline.service.setWatchers(serving.watchers)
            serving.pipeline = pipeline
        }
        inbox.yield(pipeline)
    }

    /// The number of `watch` readers changed: told to the pipeline serving now.
    func setWatchers(_ count: Int) {
        serving.withLock { serving in
            serving.watchers = count
            serving.pipeline.service.setWatchers(count)
        }
    }

    func run() async {
        let inbox = self.inbox
        await OneAtATime.run(pipelines, finish: { inbox.finish() }) { pipeline, stop in
            await Self.serve(pipeline, until: stop)
        }
    }

    /// Runs `pipeline` until `stop` ends (or the task is cancelled), then closes its location
    /// stream and waits for its gpsd readers to end.
    private static func serve(_ pipeline: Daemon.Pipeline, until stop: AsyncStream<Void>) async {
        await OneAtATime.run(
            {
                async let alerts: Void = pipeline.runAlerts()
                await pipeline.service.run()
                await alerts
            }, until: stop)
        pipeline.locationManager.close()
        await pipeline.locationManager.ended()
        await pipeline.gpsd.readersEnded()
    }
}
