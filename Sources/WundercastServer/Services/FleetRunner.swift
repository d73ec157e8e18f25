import Synchronization

/// Runs the daemon's MQTT publisher (``FleetPublisher``; none without `[MQTT] Broker=`) as a
/// service, and swaps it for another on a reload (``replace(with:)``): the old one stops cleanly
/// (`offline`, DISCONNECT) before the new one connects (``OneAtATime``).
final class FleetRunner: DaemonService {
    let name = "mqtt"
    private let publishers: AsyncStream<FleetPublisher?>
    private let inbox: AsyncStream<FleetPublisher?>.Continuation
    private let serving: Mutex<FleetPublisher?>

    /// With no publisher: MQTT off until ``replace(with:)`` gives one.
    init() {
        (publishers, inbox) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        serving = Mutex(nil)
    }

    /// The publisher serving now (for `status`), `nil` while MQTT is off.
    var current: FleetPublisher? { serving.withLock { $0 } }

    /// Ends the running publisher and starts `publisher` (`nil`: MQTT off); returns at once.
    func replace(with publisher: FleetPublisher?) {
        serving.withLock { $0 = publisher }
        inbox.yield(publisher)
    }

    /// Puts `publisher` in force: in place of the running one when both connect alike (same
    /// broker, client id, credentials, TLS, QoS, will and subscriptions: nothing reconnects),
    /// else by ``replace(with:)``. Returns whether it was in place.
    @discardableResult
    func apply(_ publisher: FleetPublisher?) -> Bool {
        if let publisher, let running = current, running.setup.client == publisher.setup.client {
            running.update(from: publisher)
            return true
        }
        replace(with: publisher)
        return false
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
