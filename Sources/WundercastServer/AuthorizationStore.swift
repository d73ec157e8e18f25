#if canImport(Glibc)
import Glibc
#endif
import WundercastModel
import WundercastPOSIX
import WundercastPipeline
import WundercastSupport

/// The one owner of the GPS authorization status: what is in force (``status``, observed by
/// the location manager and the pipeline), how a decision changes it and where it is kept
/// (`$STATE_DIRECTORY/authorization`). A decision is applied and saved in one step of this
/// actor, so two decisions at once are kept in the order they took effect; the save (a write,
/// an `fsync`, a `rename`, an `fsync` of the directory) runs on the cooperative pool as part of
/// the deciding request's task, never on the event loop. At start, ``load(configured:stateDirectory:health:logger:)``
/// makes it from the configured status and the saved decision.
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

    /// The store at start: the status in force from `configured` (`Authorization=`) and the
    /// decision saved in `stateDirectory/authorization` (``SavedDecision``). A saved `denied`
    /// wins over any configured value (the more private choice); another saved decision only
    /// answers `ask`. A file that cannot be read counts as `denied` (it may have held one): it
    /// is logged with its path (`MESSAGE_ID` ``MessageID/decisionUnreadable``) and shown in
    /// `status` (``Health/unreadableDecision(_:)``) until an `authorize` replaces it.
    ///
    /// - Parameters:
    ///   - stateDirectory: the first entry of `$STATE_DIRECTORY`; `nil` without one (nothing is
    ///     read, and decisions are not saved).
    ///   - health: told of an unreadable file, and of its replacement.
    static func load(
        configured: AuthorizationStatus, stateDirectory: String?, health: Health, logger: Logger
    ) -> AuthorizationStore {
        let decisionFile = stateDirectory.map { $0 + "/authorization" }
        var initial = configured
        switch SavedDecision.read(decisionFile) {
        case .none:
            break
        case .decided(let saved):
            if saved == .denied || initial == .notDetermined { initial = saved }
        case .unreadable(let reason):
            initial = .denied
            let path = decisionFile ?? ""
            health.unreadableDecision(.init(path: path, reason: reason))
            logger.log(
                .warning,
                "the saved authorization decision in \(path) cannot be read: \(reason); GPS use counts as denied until `wundercastctl authorize` replaces it",
                fields: [("MESSAGE_ID", MessageID.decisionUnreadable), ("WUNDERCAST_DECISION_FILE", path)])
        }
        return AuthorizationStore(initial: initial, decisionFile: decisionFile, health: health, logger: logger)
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

/// What the kept decision file (`$STATE_DIRECTORY/authorization`, written by `authorize`) says.
enum SavedDecision: Sendable, Equatable {
    /// No file (or no state directory): nobody decided.
    case none
    /// A decision, as `authorize` wrote it: one configuration spelling, optionally followed by
    /// a newline.
    case decided(AuthorizationStatus)
    /// The file exists but cannot be read or parsed; `reason` is one human phrase. It counts
    /// as `denied` (the more private choice) until an `authorize` replaces it.
    case unreadable(reason: String)

    /// The largest file read, in bytes: a decision is a word.
    static let limit = 64

    /// Parses the bytes of the decision file: exactly one spelling of
    /// ``WundercastModel/AuthorizationStatus/configName`` and at most one final newline —
    /// another case (`DENIED`), a byte-order mark, a NUL, a second line or a cut word is
    /// `.unreadable`, never `.none`.
    init(bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            self = .unreadable(reason: "the file is empty")
            return
        }
        let word = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
        guard let text = String(validating: word, as: UTF8.self) else {
            self = .unreadable(reason: "not UTF-8 text")
            return
        }
        guard let status = AuthorizationStatus(configName: text) else {
            let names = AuthorizationStatus.allCases.map(\.configName).joined(separator: ", ")
            self = .unreadable(reason: "not one line reading one of \(names) (\(bytes.count) bytes)")
            return
        }
        self = .decided(status)
    }

    /// Reads the decision file at `path` (`nil`: no state directory): missing is `.none`;
    /// any other failure to read (a directory, no permission, too large, a dangling symbolic
    /// link) is `.unreadable`.
    static func read(_ path: String?) -> SavedDecision {
        guard let path else { return .none }
        do {
            return SavedDecision(bytes: try WholeFile.read(path: path, limit: SavedDecision.limit))
        } catch {
            if case .system(let errno) = error, errno.code == ENOENT {
                // A symbolic link to nothing is there, yet cannot be read: not "no decision".
                guard (try? UnixSocket.Occupant(at: path)) != nil else { return .none }
                return .unreadable(reason: "a symbolic link to nothing")
            }
            return .unreadable(reason: error.reason)
        }
    }
}
