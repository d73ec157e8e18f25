#if canImport(Glibc)
import Glibc
#endif
import WundercastSupport
import WundercastModel
import WundercastPOSIX

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
}

extension Daemon.Instance {
    /// Reads the decision file at `path` (`nil`: no state directory): missing is `.none`;
    /// any other failure to read (a directory, no permission, too large, a dangling symbolic
    /// link) is `.unreadable`.
    static func savedDecision(_ path: String?) -> SavedDecision {
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
