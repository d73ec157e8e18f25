#if canImport(Glibc)
import Glibc
#endif

/// A libsystemd call failed. libsystemd returns `-errno`; this carries the positive errno
/// and the function that returned it.
public struct SystemdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libsystemd function, e.g. `"sd_notify"`.
    public var function: String
    /// The positive errno value, e.g. `EINVAL`.
    public var errno: Int32

    public init(function: String, errno: Int32) {
        self.function = function
        self.errno = errno
    }

    public var description: String { "\(function): \(String(cString: strerror(errno))) (errno \(errno))" }
}
