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
