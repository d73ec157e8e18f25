import WundercastModel
import WundercastPOSIX
import WundercastPipeline
import WundercastSupport

/// The one owner of the GPS authorization status: what is in force (``status``, observed by
/// the location manager and the pipeline), how a decision changes it and where it is kept
/// (`$STATE_DIRECTORY/authorization`). A decision is applied and saved in one step of this
/// actor, so two decisions at once are kept in the order they took effect; the save (a write,
/// an `fsync`, a `rename`, an `fsync` of the directory) runs on the cooperative pool as part of
/// the deciding request's task, never on the event loop.
actor AuthorizationStore {
    /// The status in force; its changes are what the pipeline follows.
    nonisolated let status: ObservableValue<AuthorizationStatus>
    /// Where `authorize` saves a decision; `nil` without a state directory.
    nonisolated let decisionFile: String?
    private let health: Health
    private let logger: Logger

    init(initial: AuthorizationStatus, decisionFile: String?, health: Health, logger: Logger) {
        status = ObservableValue(initial)
        self.decisionFile = decisionFile
        self.health = health
        self.logger = logger
    }

    /// `authorize` from the socket (or a reloaded configuration): applies `decision` and, with
    /// `persist`, saves it (a decision from `wundercastctl authorize` is saved; one from a
    /// reloaded configuration file is not: the file already holds it). `nil` only shows the
    /// status. Returns the status in force after it.
    func decide(_ decision: AuthorizationStatus?, persist: Bool = true) -> AuthorizationStatus {
        guard let decision else { return status.value }
        if decision != status.value {
            status.send(decision)
            logger.log(
                .notice, "GPS authorization is now \(decision.configName)",
                fields: [
                    ("MESSAGE_ID", MessageID.authorizationChanged), ("WUNDERCAST_AUTHORIZATION", decision.configName),
                ])
        }
        guard persist else { return decision }
        guard let decisionFile else {
            logger.notice(
                "the authorization decision is not saved: no state directory (systemd's StateDirectory= sets $STATE_DIRECTORY)"
            )
            return decision
        }
        do {
            try WholeFile.writeAtomically(Array((decision.configName + "\n").utf8), to: decisionFile)
            // The unreadable file is replaced: it no longer counts.
            health.unreadableDecision(nil)
        } catch {
            logger.warning("cannot save the authorization decision to \(decisionFile): \(error)")
        }
        return decision
    }
}
