import WundercastSupport

/// A long-lived part of the daemon (socket server, location and weather, publisher,
/// watchdog): it works in ``run()`` until its task is cancelled, then cleans up and returns.
public protocol DaemonService: Sendable {
    /// For logs: `socket`, `weather`, …
    var name: String { get }
    /// Works until the calling task is cancelled; returns once everything it started has ended.
    func run() async
}

/// Runs services as swift-service-lifecycle does: each in its own task, started in the
/// order given; on shutdown cancelled in **reverse** order, each awaited before the next is
/// cancelled (the publisher stops before the socket server it writes to, the socket server
/// before the weather it serves).
public struct ServiceGroup: Sendable {
    public let services: [any DaemonService]
    let logger: Logger

    public init(_ services: [any DaemonService], logger: Logger = .discard) {
        self.services = services
        self.logger = logger
    }

    /// Starts the services, then waits for `trigger` (e.g. SIGTERM) to return, then stops them.
    public func run(until trigger: () async -> Void) async {
        let tasks = services.map { service in Task { await service.run() } }
        await trigger()
        for (service, task) in zip(services, tasks).reversed() {
            task.cancel()
            await task.value
            logger.debug("stopped \(service.name)")
        }
    }
}
