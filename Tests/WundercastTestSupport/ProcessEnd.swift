import CPidfd
import Foundation

#if canImport(Glibc)
import Glibc
#endif

public struct ProcessEndFailure: Error, CustomStringConvertible {
    public var description: String
}

/// Whether process `pid` (not necessarily our child) ended within `timeout`: a pidfd, readable
/// once it has ended, polled on a thread of its own. A process already gone has ended.
public func processEnded(_ pid: pid_t, within timeout: Duration) async throws -> Bool {
    let fd = pidfd_open(pid, 0)
    guard fd >= 0 else {
        if errno == ESRCH { return true }
        throw ProcessEndFailure(description: "pidfd_open \(pid): \(String(cString: strerror(errno)))")
    }
    return try await onDedicatedThread("pidfd \(pid)") {
        defer { close(fd) }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            let ready = poll(&descriptor, 1, left > .zero ? Int32((left / .milliseconds(1)).rounded(.up)) : 0)
            if ready > 0 { return true }
            if ready == 0 { return false }
            guard errno == EINTR else { return false }
        }
    }
}
