import Synchronization

/// Runs the daemon's MQTT publisher (``FleetPublisher``; none without `[MQTT] Broker=`) as a
/// service, and swaps it for another on a reload (``replace(with:)``): the old one stops cleanly
/// (`offline`, DISCONNECT) before the new one connects (``OneAtATime``).
final class FleetRunner: DaemonService {
    let name = "mqtt"
    private let publishers: AsyncStream<FleetPublisher?>
    private let inbox: AsyncStream<FleetPublisher?>.Continuation
    private let serving: Mutex<FleetPublisher?>

    init(_ first: FleetPublisher?) {
        (publishers, inbox) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        serving = Mutex(first)
        inbox.yield(first)
    }

    /// The publisher serving now (for `status`), `nil` while MQTT is off.
    var current: FleetPublisher? { serving.withLock { $0 } }

    /// Ends the running publisher and starts `publisher` (`nil`: MQTT off); returns at once.
    func replace(with publisher: FleetPublisher?) {
        serving.withLock { $0 = publisher }
        inbox.yield(publisher)
    }

    func run() async {
        let inbox = self.inbox
        await OneAtATime.run(publishers, finish: { inbox.finish() }) { publisher, stop in
            if let publisher {
                await OneAtATime.run({ await publisher.run() }, until: stop)
            } else {
                for await _ in stop {}  // MQTT off until the next reload
            }
        }
    }
}
