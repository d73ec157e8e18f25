import WundercastSupport
import WundercastProtocol
import WundercastFormats

/// Why a request got no usable answer. Every case ends `wundercastctl` with exit status 1 in
/// plain and json (message on stderr); bar formats print ``barKind``'s line instead.
public enum CtlError: Error, Sendable, Equatable {
    /// No daemon at the socket (no file, nobody listening), no permission, or the connection
    /// failed or closed before an answer.
    case unreachable(String)
    /// The daemon accepted but did not answer within the time limit.
    case noAnswer(String)
    /// The daemon answered `{"class":"ERROR",…}`.
    case refused(code: String, message: String)
    /// The answer could not be read (not JSON, wrong class, too long).
    case unreadable(String)
    /// wundercastctl's own output hung up (`watch`: the status bar reading it is gone).
    case readerGone

    /// One human line (sanitized: it may quote the daemon).
    public var message: String {
        switch self {
        case .unreachable(let text), .noAnswer(let text), .unreadable(let text): text
        case .readerGone: "the reader of the output is gone"
        case .refused(let code, let message) where code == SocketProtocol.ErrorCode.shuttingDown.rawValue:
            UntrustedText.sanitized(message)
        case .refused(let code, let message):
            "the daemon refused the request: \(UntrustedText.sanitized(message)) (\(UntrustedText.sanitized(code, limit: 40)))"
        }
    }

    /// The bar line that stands for this failure: `error` for a refusal, else `offline` (also
    /// for `shutting-down`: the daemon is going away, not refusing).
    public var barKind: BarItem.Unavailable {
        if case .refused(let code, _) = self, code != SocketProtocol.ErrorCode.shuttingDown.rawValue { return .error }
        return .offline
    }
}
