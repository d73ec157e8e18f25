import WundercastSupport
import WundercastPipeline

import WundercastSystemd

/// systemd's watchdog (`WATCHDOG=1` at half of `WATCHDOG_USEC`), sent only while the daemon
/// works: each tick makes a round trip through the socket server's loop (a stuck server
/// blocks the tick, so no ping) and asks whether the weather pipeline answered the previous
/// liveness probe (``WeatherService/probeLiveness()``; a wedged pipeline withholds the ping,
/// logged once as a warning). The same tick runs the resume check on the clocks (`onTick`).
///
/// With systemd's watchdog off there is nothing to ping; the tick then runs every
/// ``idleTick`` only while `tickWanted` (no logind to tell resumes), else not at all.
/// Cancelling ``run()`` stops it.
///
/// The ping period is at least ``minimumPingPeriod`` (100 ms): a tiny `WATCHDOG_USEC` (1 µs,
/// 1 ms) would otherwise spin the tick, and a pipeline probe answered a few microseconds ago
/// is no evidence of a wedge. systemd then kills the daemon for a late ping, as it asked for.
struct Watchdog<C: Clock>: DaemonService where C.Duration == Swift.Duration {
    let name = "watchdog"
    /// Half of systemd's watchdog timeout, or `nil` when the watchdog is off.
    let pingInterval: Duration?
    let idleTick: Duration
    let tickWanted: ObservableValue<Bool>
    let clock: C
    /// Returns once the socket server's loop has run it (the task waits, no thread blocks).
    let socketAnswers: @Sendable () async -> Void
    /// Whether the weather pipeline answered every earlier probe; sends the next.
    let pipelineAnswered: @Sendable () -> Bool
    let ping: @Sendable () -> Void
    let onTick: @Sendable () -> Void
    let logger: Logger
    /// The shortest ping period, whatever `WATCHDOG_USEC` says.
    static var minimumPingPeriod: Duration { .milliseconds(100) }

    func run() async {
        if let pingInterval {
            return await ticks(every: max(pingInterval, Self.minimumPingPeriod), pinging: true)
        }
        await forEachLatest(tickWanted.values()) { wanted in
            if wanted { await ticks(every: idleTick, pinging: false) } else { await waitUntilCancelled() }
        }
    }

    private func ticks(every period: Duration, pinging: Bool) async {
        var withheld = 0
        while true {
            do { try await clock.sleep(for: period) } catch { return }
            onTick()
            guard pinging else { continue }
            await socketAnswers()
            guard pipelineAnswered() else {
                withheld += 1
                if withheld == 1 {
                    logger.warning("the weather pipeline did not answer the watchdog's probe: WATCHDOG=1 withheld")
                } else {
                    logger.debug("watchdog: WATCHDOG=1 withheld, the weather pipeline silent for \(withheld) ticks")
                }
                continue
            }
            if withheld > 0 { logger.notice("the weather pipeline answers again: WATCHDOG=1 resumed") }
            withheld = 0
            ping()
        }
    }
}

extension Watchdog where C == ContinuousClock {
    /// The daemon's watchdog: `notifier`'s interval and pings, `server`'s loop, the current pipeline's
    /// probe, `wake`'s clock check (every 15 s when the watchdog is off and logind is not there).
    init(
        notifier: ServiceNotifier, server: SocketServer,
        service: @escaping @Sendable () -> WeatherService<ContinuousClock>,
        wake: WakeWatch,
        logger: Logger
    ) {
        self.init(
            pingInterval: notifier.watchdogInterval.map { $0 / 2 }, idleTick: .seconds(15),
            tickWanted: wake.clockCheckWanted, clock: ContinuousClock(),
            socketAnswers: { await server.loop.perform {} }, pipelineAnswered: { service().probeLiveness() },
            ping: { _ = try? notifier.watchdog() }, onTick: { wake.checkClocks() }, logger: logger)
    }
}
