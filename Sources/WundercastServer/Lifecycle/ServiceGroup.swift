import Synchronization
import WundercastPipeline
import WundercastSupport

/// A long-lived part of the daemon (socket server, location and weather, publisher,
/// watchdog): it works in ``run()`` until its task is cancelled, then cleans up and returns.
public protocol DaemonService: Sendable {
    /// For logs: `socket`, `weather`, …
    var name: String { get }
    /// Works until the calling task is cancelled; returns once everything it started has ended.
    func run() async
}

/// Runs services as swift-service-lifecycle does: each a child task of ``run(until:)``,
/// started in the order given; on shutdown cancelled in **reverse** order, each awaited (up to
/// the group's ``shutdownDeadline``) before the next is cancelled (the publisher stops before
/// the socket server it writes to, the socket server before the weather it serves). The
/// trigger, cancelled first, has the same deadline.
///
/// A service that returns before it was asked to stop has failed: that is logged as an error
/// naming it, the others are stopped as on shutdown, and ``run(until:)`` says so, so that the
/// daemon exits with an error status and systemd restarts it (`Restart=on-failure`).
public struct ServiceGroup: Sendable {
    /// How the group ended.
    public enum Outcome: Sendable, Equatable {
        /// The trigger returned (SIGTERM): every service was stopped.
        case stopped
        /// `service` ended by itself; the others were stopped.
        case serviceEnded(String)
    }

    public let services: [any DaemonService]
    /// How long one service may take to stop once cancelled.
    public let shutdownDeadline: Duration
    /// Called once, with the name of the first service (in stopping order) that did not stop
    /// within ``shutdownDeadline`` — or ``triggerName`` for a trigger that did not end when
    /// cancelled —, after every service was asked to stop and given its deadline (a stuck one
    /// does not keep the next from stopping), each error logged. A task cannot be left behind
    /// by its group, so the daemon's ends the process (exit status 1: systemd counts a
    /// failure); the group waits on otherwise.
    let onStuck: @Sendable (String) -> Void
    let logger: Logger

    public init(
        _ services: [any DaemonService], shutdownDeadline: Duration = .seconds(10),
        onStuck: @escaping @Sendable (String) -> Void = { _ in }, logger: Logger = .discard
    ) {
        self.services = services
        self.shutdownDeadline = shutdownDeadline
        self.onStuck = onStuck
        self.logger = logger
    }

    /// What the children report, and the stop requests they wait for.
    private final class Control: Sendable {
        /// Services asked to stop (by index).
        let stop = ObservableValue<Set<Int>>([])
        /// Services that have returned (by index).
        let ended = ObservableValue<Set<Int>>([])

        func waitUntil(_ observed: ObservableValue<Set<Int>>, contains index: Int) async {
            for await set in observed.values() where set.contains(index) { return }
        }
    }

    /// Starts the services, then waits for `trigger` (e.g. SIGTERM) to return or a service to
    /// end by itself, then stops them in reverse order.
    public func run(until trigger: @escaping @Sendable () async -> Void) async -> Outcome {
        let control = Control()
        let triggerIndex = services.count
        return await withTaskGroup(of: Void.self) { group in
            for (index, service) in services.enumerated() {
                group.addTask {
                    await withTaskGroup(of: Void.self) { own in
                        own.addTask { await service.run() }
                        own.addTask { await control.waitUntil(control.stop, contains: index) }
                        await own.next()
                        own.cancelAll()
                    }
                    control.ended.update { $0.insert(index) }
                }
            }
            group.addTask {
                await withTaskGroup(of: Void.self) { own in
                    own.addTask { await trigger() }
                    own.addTask { await control.waitUntil(control.stop, contains: triggerIndex) }
                    await own.next()
                    own.cancelAll()
                }
                control.ended.update { $0.insert(triggerIndex) }
            }
            // The first to end: the trigger, or a service that failed.
            var outcome = Outcome.stopped
            for await ended in control.ended.values() where !ended.isEmpty {
                if let failed = ended.filter({ $0 != triggerIndex }).min() {
                    let name = services[failed].name
                    logger.error("the \(name) service ended by itself: stopping the daemon")
                    outcome = .serviceEnded(name)
                }
                break
            }
            control.stop.update { $0.insert(triggerIndex) }
            // A stuck one holds back the next by its deadline only, and the process is ended
            // (``onStuck``) only once every later one was asked to stop and given its time.
            var stuck: [String] = []
            for index in services.indices.reversed() {
                control.stop.update { $0.insert(index) }
                if await Self.ended(index, control, within: shutdownDeadline) {
                    logger.debug("stopped \(services[index].name)")
                } else {
                    logger.error("the \(services[index].name) service did not stop within \(shutdownDeadline)")
                    stuck.append(services[index].name)
                }
            }
            // The trigger was cancelled first; it has the same deadline.
            if !(await Self.ended(triggerIndex, control, within: shutdownDeadline)) {
                logger.error("the stop trigger did not end within \(shutdownDeadline)")
                stuck.append(Self.triggerName)
            }
            if let first = stuck.first { onStuck(first) }
            return outcome
        }
    }

    /// The name ``onStuck`` is given for a trigger that does not end when cancelled.
    public static let triggerName = "stop trigger"

    /// Whether child `index` ends within `deadline` (`true` at once when it has).
    private static func ended(_ index: Int, _ control: Control, within deadline: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { wait in
            wait.addTask {
                await control.waitUntil(control.ended, contains: index)
                return true
            }
            wait.addTask {
                try? await Task.sleep(for: deadline)
                return false
            }
            let first = await wait.next() ?? false
            wait.cancelAll()
            return first
        }
    }
}
