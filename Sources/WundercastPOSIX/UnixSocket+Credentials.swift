#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a connected Unix socket, as the kernel recorded it when the
/// peer called `connect(2)` (or `socketpair(2)`): `SO_PEERCRED` and `SO_PEERGROUPS`.
public struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id (in the reader's PID namespace; 0 when it is not visible there).
    public var pid: Int32
    /// Effective user and group id of the peer at `connect` time.
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension UnixSocket {
    /// The peer's `SO_PEERCRED` credentials on the connected Unix socket `fd`.
    ///
    /// - Throws: ``Errno`` from `getsockopt` (`ENOTCONN`, `EBADF`, `ENOTSOCK`, `ENOPROTOOPT`
    ///   for a socket that is not `AF_UNIX`).
    public static func peerCredentials(_ fd: Int32) throws(Errno) -> PeerCredentials {
        // `struct ucred` is { pid_t pid; uid_t uid; gid_t gid; }: three 32-bit members
        // (<bits/socket.h>, visible only with _GNU_SOURCE, so spelled out here).
        var raw: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        _ = try blockingSyscall("getsockopt", "SO_PEERCRED of fd \(fd)") {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length)
        }
        return PeerCredentials(pid: raw.0, uid: raw.1, gid: raw.2)
    }

    /// Whether the peer of the connected Unix socket `fd` had `gid` among its supplementary
    /// groups at `connect` time (`SO_PEERGROUPS`, Linux 4.13+). Up to 64 groups are read
    /// without allocating; a peer in more groups is read in full.
    ///
    /// - Throws: ``Errno`` from `getsockopt` (`ENOPROTOOPT` on kernels without `SO_PEERGROUPS`).
    public static func peerHasSupplementaryGroup(_ fd: Int32, _ gid: UInt32) throws(Errno) -> Bool {
        var small:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: small))
        let fits = try withUnsafeMutableBytes(of: &small) { (raw) throws(Errno) -> Bool in
            let result = getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, raw.baseAddress, &length)
            if result == -1 {
                let code = errno
                if code == ERANGE { return false }  // `length` now holds the size needed
                throw Errno(call: "getsockopt", subject: "SO_PEERGROUPS of fd \(fd)", code: code)
            }
            let groups = raw.bindMemory(to: UInt32.self).prefix(Int(length) / MemoryLayout<UInt32>.size)
            return groups.contains(gid) ? true : false
        }
        if fits || length <= socklen_t(MemoryLayout.size(ofValue: small)) {
            return fits
        }
        // More than 64 groups: read them all.
        var groups = [UInt32](repeating: 0, count: Int(length) / MemoryLayout<UInt32>.size)
        _ = try blockingSyscall("getsockopt", "SO_PEERGROUPS of fd \(fd)") {
            groups.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, $0.baseAddress, &length) }
        }
        return groups.prefix(Int(length) / MemoryLayout<UInt32>.size).contains(gid)
    }
}

/// Looking up users' groups in the system's databases (`/etc/group`, NSS).
public enum GroupDatabase {
    /// The id of the group called `name` (`getgrnam_r`), or `nil` when no such group exists.
    ///
    /// - Throws: ``Errno`` when the lookup itself failed (`EIO`, `EMFILE`, …), not for a
    ///   missing group.
    public static func gid(named name: String) throws(Errno) -> UInt32? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var size = 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let code = getgrnam_r(name, &group, &buffer, size, &result)
            if code == ERANGE && size < 1 << 20 {
                size *= 4
                continue
            }
            if code == EINTR { continue }
            // 0 with no result, ENOENT, ESRCH, EBADF, EPERM: "not found" (getgrnam_r(3)).
            if code == 0 || [ENOENT, ESRCH, EBADF, EPERM].contains(code) {
                return result == nil ? nil : group.gr_gid
            }
            throw Errno(call: "getgrnam_r", subject: name, code: code)
        }
    }
}

/// The process's limit on open descriptors.
public enum DescriptorLimit {
    /// The soft `RLIMIT_NOFILE` now, or `nil` when unlimited or unreadable.
    public static func soft() -> Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        return Int(clamping: limit.rlim_cur)
    }
}

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
