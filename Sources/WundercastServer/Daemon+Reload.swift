import WundercastCore
import WundercastSystemd

extension Daemon.Instance {
    /// SIGHUP: re-read the configuration. The authorization status applies at once;
    /// other keys need a restart. A bad file is refused and the running state kept.
    func reload() {
        _ = try? notifier.reloading()
        defer { _ = try? notifier.ready(status: "reloaded") }
        do {
            let fresh = try Daemon.loadConfiguration(options)
            // Compared with the file as last loaded, not as at start-up: editing the file
            // back to the start-up value must apply too.
            let previous = lastLoaded.withLock { last in
                defer { last = fresh }
                return last
            }
            if fresh.location.authorization != previous.location.authorization {
                _ = authorize(fresh.location.authorization, persist: false)
            }
            var comparable = fresh
            comparable.location.authorization = configuration.location.authorization
            if case .resolved(let name, _) = configuration.location.fallback,
                comparable.location.fallback == .name(name)
            {
                comparable.location.fallback = configuration.location.fallback  // resolved at start-up
            }
            let reloaded = ("MESSAGE_ID", MessageID.configurationReloaded)
            if comparable != configuration {
                logger.log(
                    .notice, "configuration reloaded; changes other than Authorization= take effect after a restart",
                    fields: [reloaded, ("WUNDERCAST_RESTART_NEEDED", "yes")])
            } else {
                logger.log(.info, "configuration reloaded", fields: [reloaded, ("WUNDERCAST_RESTART_NEEDED", "no")])
            }
        } catch {
            logger.log(
                .error, "configuration rejected, keeping the running one: \(error)",
                fields: [("MESSAGE_ID", MessageID.configurationRejected)])
        }
    }
}
