import WundercastCore
import WundercastSystemd

/// Pings systemd's watchdog (`WATCHDOG=1`) at half its interval, after a round trip through
/// the socket server's queue (so a stuck server stops the pings). Does nothing without
/// `WATCHDOG_USEC`. Cancelling ``run()`` stops it.
struct Watchdog: DaemonService {
    let name = "watchdog"
    let notifier: ServiceNotifier
    let server: SocketServer

    func run() async {
        guard let interval = notifier.watchdogInterval else { return }
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval / 2) } catch { return }
            _ = server.clientCount
            _ = try? notifier.watchdog()
        }
    }
}
