import Synchronization
import WundercastSupport
import WundercastPipeline
import WundercastPOSIX
import WundercastSystemd

/// Wakes the weather service when the world comes back (issue 8, point 2): on resume from
/// suspend (logind's `PrepareForSleep(false)` through sd-bus, or a jump of `CLOCK_BOOTTIME`
/// over `CLOCK_MONOTONIC` seen on the watchdog's tick, ``checkClocks()``) and when the
/// network returns (rtnetlink: a link up, a new address or route; one wake per burst, after
/// 1 s of quiet, at most 5 s after its first message).
///
/// Both watchers run on the socket server's ``EventLoop`` (no thread or descriptors of their
/// own beyond the netlink socket and the bus connection: the descriptor reserve of the
/// socket server stays for the daemon's real work). Without a system bus or
/// without `AF_NETLINK` the watcher says so in one log line and the daemon goes on: the clock
/// check covers resumes, the back-off covers the network. Cancelling ``run()`` closes both.
final class WakeWatch: DaemonService {
    let name = "wake"
    /// The weather service serving now (a reload may replace the pipeline).
    let service: @Sendable () -> WeatherService<ContinuousClock>
    /// Where the watchers run (the socket server's loop; it outlives this service).
    let loop: EventLoop
    let logger: Logger
    /// `CLOCK_BOOTTIME − CLOCK_MONOTONIC` (injectable: tests simulate a suspend).
    let readOffset: @Sendable () -> Duration
    private let detector = Mutex(SuspendDetector())
    private let debouncer = Debouncer(clock: ContinuousClock())
    /// Whether the clock check needs a tick of its own (no logind to tell resumes): read by
    /// the watchdog when systemd's watchdog is off.
    let clockCheckWanted = ObservableValue(false)

    init(
        service: @escaping @Sendable () -> WeatherService<ContinuousClock>, loop: EventLoop, logger: Logger,
        readOffset: @escaping @Sendable () -> Duration = SuspendClocks.offset
    ) {
        self.service = service
        self.loop = loop
        self.logger = logger
        self.readOffset = readOffset
        checkClocks()  // the baseline
    }

    /// The watchdog's tick: a suspend shows as a jump of the clocks' offset.
    func checkClocks() {
        let offset = readOffset()
        guard let asleep = detector.withLock({ $0.tick(offset: offset) }) else { return }
        service().wake(.clockJump, asleepFor: asleep)
    }

    /// logind said the machine resumed: believed only when the clocks show the time asleep
    /// (``SuspendDetector/resumed(offset:)``); any client of the bus can send the signal.
    func resumed() {
        let offset = readOffset()
        guard let asleep = detector.withLock({ $0.resumed(offset: offset) }) else {
            logger.debug("logind: a resume the clocks do not show (reported already, or no suspend): ignored")
            return
        }
        service().wake(.resumed, asleepFor: asleep)
    }

    func run() async {
        let debouncer = self.debouncer
        let routes: RouteMonitor?
        do {
            routes = try await RouteMonitor(loop: loop) { _ in debouncer.signal() }
        } catch {
            routes = nil
            logger.info(
                "not watching the network (rtnetlink: \(error)): after an outage the weather is retried on its back-off"
            )
        }
        let sleep: SleepMonitor?
        do {
            sleep = try await SleepMonitor(
                loop: loop, timeout: .seconds(2), logger: logger, onResume: { [self] in resumed() },
                onEnd: { [self] reason in
                    logger.info("logind's bus connection ended (\(reason)): resumes are told by the clocks")
                    clockCheckWanted.send(true)
                })
        } catch {
            sleep = nil
            logger.info("no logind on the system bus (\(error)): resumes are told by the clocks on the watchdog's tick")
            clockCheckWanted.send(true)
        }
        await withTaskGroup(of: Void.self) { group in
            if let sleep { group.addTask { await self.awaitSubscription(sleep) } }
            await debouncer.run { [service] in service().wake(.networkReturned) }
            group.cancelAll()
        }
        sleep?.close()
        routes?.close()
    }

    /// A broker that does not confirm the subscription within ``subscriptionWait`` (it may
    /// never answer) leaves resumes to the clocks, as if logind were missing.
    private func awaitSubscription(_ sleep: SleepMonitor) async {
        do { try await Task.sleep(for: Self.subscriptionWait) } catch { return }
        guard !sleep.isSubscribed else { return }
        logger.info(
            "logind's bus did not confirm the subscription within \(Self.subscriptionWait): resumes are told by the clocks"
        )
        clockCheckWanted.send(true)
    }

    /// How long the broker has to confirm the subscription to `PrepareForSleep`.
    static var subscriptionWait: Duration { .seconds(5) }
}
