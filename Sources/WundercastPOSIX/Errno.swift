#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, on what, and the `errno` it set.
///
/// `description` reads `call(subject): strerror text`, e.g. `connect(/run/x.sock): No such file or directory`.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call's name, e.g. `open`, `accept`.
    public var call: String
    /// What it was called on: a path, `fd 7`, or a short phrase.
    public var subject: String
    /// The `errno` value, e.g. `ENOENT`.
    public var code: Int32

    public init(call: String, subject: String, code: Int32) {
        self.call = call
        self.subject = subject
        self.code = code
    }

    /// `strerror(code)`, e.g. `No such file or directory`.
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(call)(\(subject)): \(reason)" }
}
