#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastFleet
import WundercastModel
import WundercastMQTT
import WundercastPOSIX
import WundercastPipeline
import Synchronization
import WundercastSupport

#if canImport(Glibc)
import Glibc
#endif

/// Publishes the daemon's state to its MQTT broker (issue 16): on `<prefix>/state` each change
/// of the state as a reader at `[MQTT] Precision=` sees it (without ages), on `<prefix>/location`
/// the position for Home Assistant's device tracker, on `owntracks/<user>/<device>` the same for
/// OwnTracks, all retained; Home Assistant's device discovery at connect (the client re-sends
/// what it keeps on each connect), when `[MQTT]` changes what it describes and when Home
/// Assistant's birth message says `online` — never with state updates. What was published for
/// discovery is kept in the state directory, so that a changed prefix or id, or `Discovery=no`,
/// clears the old retained config once, also across restarts.
///
/// MQTT publishes the state and never drives it: the client keeps only the newest message of
/// each topic, so a broker that is away costs nothing but its retry timer. Cancelling ``run()``
/// stops the client cleanly (`offline`, then DISCONNECT).
struct FleetPublisher: Sendable {
    /// What it publishes, and how; ``update(from:)`` changes it in place.
    var setup: Daemon.FleetSetup { content.value.withLock { $0.setup } }
    /// The state as a reader at `[MQTT] Precision=` sees it (a public view).
    var view: @Sendable (WeatherState) -> WeatherState { content.value.withLock { $0.view } }
    let store: StateStore
    /// `$STATE_DIRECTORY/mqtt-discovery`; `nil` without a state directory.
    let recordPath: String?
    let clock: any LoopClock
    let logger: Logger

    /// The client, made when ``run()`` starts (for `status`).
    let client: MQTTClient
    private let births: AsyncStream<Void>
    private let birth: AsyncStream<Void>.Continuation
    private let content: Content

    /// The setup and view in force, changed in place by a reload that keeps the connection.
    private final class Content: Sendable {
        let value: Mutex<(setup: Daemon.FleetSetup, view: @Sendable (WeatherState) -> WeatherState)>
        let changes: AsyncStream<Void>
        let changed: AsyncStream<Void>.Continuation

        init(_ setup: Daemon.FleetSetup, _ view: @escaping @Sendable (WeatherState) -> WeatherState) {
            value = Mutex((setup, view))
            (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        }
    }

    init(
        setup: Daemon.FleetSetup, store: StateStore, view: @escaping @Sendable (WeatherState) -> WeatherState,
        recordPath: String?, clock: any LoopClock, logger: Logger
    ) {
        content = Content(setup, view)
        self.store = store
        self.recordPath = recordPath
        self.clock = clock
        self.logger = logger
        (births, birth) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        let birth = self.birth
        let statusTopic = setup.discovery?.homeAssistantStatusTopic
        client = MQTTClient(settings: setup.client, clock: clock, logger: logger) { topic, payload in
            if topic == statusTopic, payload == Array("online".utf8) { birth.yield() }
        }
    }

    func run() async {
        client.start()
        publishDiscovery(from: readRecord())
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                for await _ in births {
                    // Home Assistant came back: its retained config may be gone with its broker.
                    if let discovery = setup.discovery { client.publish(discovery.message) }
                }
            }
            group.addTask { [self] in
                // A reload that kept the connection (`update(from:)`): discovery from what was
                // published, and the current state as it now looks.
                var discovery = setup.discovery
                for await _ in content.changes {
                    // Discovery only when the reload changed what it describes.
                    if setup.discovery != discovery {
                        publishDiscovery(from: readRecord())
                        discovery = setup.discovery
                    }
                    for message in messages(for: view(store.current)) { client.publish(message) }
                }
            }
            group.addTask { [self] in
                var last: [String: [UInt8]] = [:]
                for await state in store.states() {
                    for message in messages(for: view(state)) where last[message.topic] != message.payload {
                        last[message.topic] = message.payload
                        client.publish(message)
                    }
                }
            }
            await group.next()
            group.cancelAll()
        }
        birth.finish()
        content.changed.finish()
        await client.stop()
    }

    /// Takes `other`'s setup and view in place — its connection settings are this one's
    /// (``Daemon/FleetSetup/client``), so nothing reconnects — and publishes what changed.
    func update(from other: FleetPublisher) {
        let (setup, view) = (other.setup, other.view)
        precondition(setup.client == self.setup.client, "an update in place keeps the connection")
        content.value.withLock { $0 = (setup, view) }
        content.changed.yield()
    }

    /// The state's messages: the state, and the location (for the device tracker and OwnTracks)
    /// when it has one.
    func messages(for state: WeatherState) -> [FleetMessage] {
        let setup = self.setup  // one look at the setup in force
        var messages = [setup.topics.stateMessage(state)]
        if let location = setup.topics.locationMessage(state, precision: setup.precision) { messages.append(location) }
        if let ownTracks = setup.ownTracks,
            let message = ownTracks.locationMessage(state, precision: setup.precision)
        {
            messages.append(message)
        }
        return messages
    }

    /// Discovery from what was published before (the kept record) to what is configured now,
    /// in order; the new record is kept.
    private func publishDiscovery(from old: DiscoveryRecord?) {
        var messages = DiscoveryUpdate.messages(from: old, to: setup.discovery)
        // The current config, last, is kept as its topic's newest message: what each connect and
        // each birth message send again. The steps before it (a removal, a clearing) go once.
        if let discovery = setup.discovery, messages.last == discovery.message { messages.removeLast() }
        if !messages.isEmpty { client.publish(inOrder: messages.map { ($0.topic, $0.payload) }) }
        if let discovery = setup.discovery { client.publish(discovery.message) }
        if old != setup.discovery?.record { writeRecord(setup.discovery?.record) }
    }

    private func readRecord() -> DiscoveryRecord? {
        guard let recordPath else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path: recordPath, limit: 64 * 1024)
        } catch {
            if case .system(let errno) = error, errno.code == ENOENT { return nil }  // the first start
            logger.warning("\(recordPath): cannot read what was published for MQTT discovery, ignored: \(error)")
            return nil
        }
        do {
            return try JSONDecoder().decode(DiscoveryRecord.self, from: Data(bytes))
        } catch {
            logger.warning("\(recordPath): not a record of MQTT discovery, ignored: \(error)")
            return nil
        }
    }

    private func writeRecord(_ record: DiscoveryRecord?) {
        guard let recordPath else { return }
        do {
            if let record {
                try WholeFile.writeAtomically(
                    Array(try JSONEncoder().encode(record)), to: recordPath, permissions: 0o600)
            } else {
                try WholeFile.remove(recordPath)
            }
        } catch {
            logger.warning("cannot keep what was published for MQTT discovery in \(recordPath): \(error)")
        }
    }
}

extension MQTTClient {
    /// Keeps `message` as the newest of its topic (retained).
    func publish(_ message: FleetMessage) { publish(message.topic, message.payload, retain: true) }
}
