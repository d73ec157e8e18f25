import WundercastCore
import WundercastPOSIX

extension Daemon.Instance {
    static func savedDecision(_ path: String?) -> AuthorizationStatus? {
        guard let path, let bytes = try? WholeFile.read(path: path, limit: 4096),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return AuthorizationStatus(configName: String(trimmed))
    }

    /// `authorize` from the socket: applies and persists a decision, or shows the status.
    /// `persist`: a decision from `wundercastctl authorize` is saved; one from a reloaded
    /// configuration file is not (the file already holds it).
    func authorize(_ status: AuthorizationStatus?, persist: Bool = true) -> AuthorizationStatus {
        guard let status else { return authorization.value }
        if status != authorization.value {
            authorization.send(status)
            logger.log(
                .notice, "GPS authorization is now \(status.configName)",
                fields: [
                    ("MESSAGE_ID", MessageID.authorizationChanged), ("WUNDERCAST_AUTHORIZATION", status.configName),
                ])
        }
        guard persist else { return status }
        guard let decisionFile else {
            logger.notice(
                "the authorization decision is not saved: no state directory (systemd's StateDirectory= sets $STATE_DIRECTORY)"
            )
            return status
        }
        do {
            try WholeFile.writeAtomically(Array((status.configName + "\n").utf8), to: decisionFile)
        } catch {
            logger.warning("cannot save the authorization decision to \(decisionFile): \(error)")
        }
        return status
    }
}
