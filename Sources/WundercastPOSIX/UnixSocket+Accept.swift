#if canImport(Glibc)
import Glibc
#endif

extension UnixSocket {
    /// Accepts one connection on the non-blocking listening socket `listenFD`; returns it
    /// non-blocking and close-on-exec, or ``IOResult/wouldBlock`` when none waits.
    /// (`accept4` would save the two `fcntl` calls, but Swift's Glibc module does not import it.)
    ///
    /// - Throws: ``Errno`` from `accept` (`EMFILE`/`ENFILE`: out of descriptors;
    ///   `ECONNABORTED`: that connection is gone) or `fcntl`.
    public static func accept(_ listenFD: Int32) throws(Errno) -> IOResult<Int32> {
        guard
            case .done(let fd) = try syscall("accept", "listening fd \(listenFD)", { Glibc.accept(listenFD, nil, nil) })
        else { return .wouldBlock }
        do throws(Errno) {
            // A new connection has no other file status flags worth keeping: one F_SETFL.
            _ = try blockingSyscall("fcntl", "fd \(fd)") { fcntl(fd, F_SETFL, O_NONBLOCK) }
            try Descriptor.setCloseOnExec(fd)
        } catch {
            try? Descriptor.close(fd)
            throw error
        }
        return .done(fd)
    }
}
