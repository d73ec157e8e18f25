import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Both ends of a pipe for a child's stdin, stdout or stderr: a local stream socket pair made
/// close-on-exec atomically (`SOCK_CLOEXEC`; Swift's Glibc has no `pipe2`), so that a child
/// started by another test at the same moment does not inherit an end and keep it open: a
/// reader sees EOF only when every writer has closed its end. (Under systemd a service's
/// stdout is a stream socket too.)
public struct PipeDescriptors: Sendable {
    public let read: Int32
    public let write: Int32

    public init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw DatagramSocket.Failure(call: "socketpair", errno: errno)
        }
        read = fds[0]
        write = fds[1]
    }

    /// `device:inode` of the socket, as systemd's `JOURNAL_STREAM` names a service's stderr.
    public var journalStream: String {
        var status = stat()
        fstat(write, &status)
        return "\(status.st_dev):\(status.st_ino)"
    }

    /// Reads `read` to EOF on a dedicated thread (never a Swift concurrency thread), handing
    /// the bytes to `log` and finishing it at EOF; the thread closes `read`.
    public func readToEnd(into log: OutputLog, name: String) {
        let fd = read
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    log.append(buffer[0..<n])
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            Glibc.close(fd)
            log.finish()
        }
        thread.name = name
        thread.start()
    }
}
