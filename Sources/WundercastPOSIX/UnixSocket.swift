#if canImport(Glibc)
import Glibc
#endif

/// Unix stream sockets: listening (the daemon) and connecting (clients).
public enum UnixSocket {
    /// Binds and listens on `path`. A socket file left by a dead daemon is replaced when it is
    /// ours or root's (``Occupant/isReplaceable(byUser:)``); anything else at the path (a
    /// regular file, a directory, a symbolic link, a FIFO, a device, another user's socket) is
    /// left alone and is an error, as are a live socket (something accepts connections there)
    /// and a path over 107 bytes. Returns a non-blocking, close-on-exec descriptor.
    ///
    /// With `mode` (permission bits such as `0o666`), the socket file gets exactly that mode,
    /// whatever the umask, before anyone can connect: `fchmod` on a socket descriptor before
    /// `bind` does not reach the file, and changing the umask is process-wide (racing other
    /// threads that create files), so the file is bound, then `chmod`ed, and only then does
    /// `listen` start: until `listen(2)` every `connect(2)` to the path fails with
    /// `ECONNREFUSED`, so no client ever connects through a wider mode.
    ///
    /// - Throws: ``Errno`` naming the call (`bind`: `EADDRINUSE` for a live daemon, `EEXIST`
    ///   for something that is not ours to replace, the subject saying what it is,
    ///   `ENAMETOOLONG` for a long path; `lstat`, `socket`, `chmod`, `listen`) and the path.
    public static func listen(path: String, backlog: Int32 = 64, mode: UInt32? = nil) throws(Errno) -> Int32 {
        guard fits(path) else { throw Errno(call: "bind", subject: path, code: ENAMETOOLONG) }
        if let occupant = try Occupant(at: path) {
            guard occupant.isReplaceable(byUser: geteuid()) else {
                throw Errno(call: "bind", subject: "\(path) (\(occupant.refusal))", code: EEXIST)
            }
            if let probe = try? connect(path: path) {
                try? Descriptor.close(probe)
                throw Errno(call: "bind", subject: path + " (another daemon is serving it)", code: EADDRINUSE)
            }
            // Only the socket just looked at: a file put there since is left alone.
            if try Occupant(at: path) == occupant { unlink(path) }
        }
        let fd = try blockingSyscall("socket", path) {
            socket(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        do throws(Errno) {
            var address = makeAddress(path)
            _ = try blockingSyscall("bind", path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            if let mode {
                _ = try blockingSyscall("chmod", path) { chmod(path, mode_t(mode & 0o7777)) }
            }
            _ = try blockingSyscall("listen", path) { Glibc.listen(fd, backlog) }
        } catch {
            try? Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// Removes the socket file the daemon bound at `path`, at its end: only while a socket of
    /// the daemon's user is there (one replaced by another file or user meanwhile is left alone).
    public static func removeOwnSocket(at path: String) {
        guard let occupant = try? Occupant(at: path), occupant.kind == .socket, occupant.owner == geteuid() else {
            return
        }
        unlink(path)
    }

    /// What is at a socket path before the daemon binds it (`lstat`: a symbolic link is not
    /// followed). Only a socket owned by the daemon's user or root is ever removed to bind anew:
    /// a regular file at `[Socket] Path=` may be anyone's data, and another user's socket is
    /// another user's service.
    public struct Occupant: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case socket, regularFile, directory, symbolicLink, fifo, other
        }
        public var kind: Kind
        /// The owner's user id (`st_uid`).
        public var owner: UInt32
        /// Device and inode: the same file when looked at again.
        var device: UInt64
        var inode: UInt64

        /// What is at `path`; `nil` when nothing is.
        ///
        /// - Throws: ``Errno`` of `lstat` other than `ENOENT` (e.g. `EACCES`, `ENOTDIR`).
        public init?(at path: String) throws(Errno) {
            var status = stat()
            guard lstat(path, &status) == 0 else {
                let code = errno
                if code == ENOENT { return nil }
                throw Errno(call: "lstat", subject: path, code: code)
            }
            switch status.st_mode & S_IFMT {
            case S_IFSOCK: kind = .socket
            case S_IFREG: kind = .regularFile
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symbolicLink
            case S_IFIFO: kind = .fifo
            default: kind = .other
            }
            owner = status.st_uid
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }

        /// Whether a daemon running as `uid` may remove it to bind there: a socket of `uid`'s
        /// or root's (a stale one; the caller still checks that nobody serves it).
        public func isReplaceable(byUser uid: UInt32) -> Bool {
            kind == .socket && (owner == uid || owner == 0)
        }

        /// Why it is left alone, e.g. `a regular file, not a socket: left in place`.
        public var refusal: String {
            let what =
                switch kind {
                case .socket: "a socket of user \(owner), not ours"
                case .regularFile: "a regular file, not a socket"
                case .directory: "a directory, not a socket"
                case .symbolicLink: "a symbolic link, not a socket"
                case .fifo: "a FIFO, not a socket"
                case .other: "a device or other special file, not a socket"
                }
            return what + ": left in place; remove it or choose another Path="
        }
    }

    /// Connects to the stream socket at `path` (blocking). Returns a close-on-exec descriptor.
    ///
    /// - Throws: ``Errno`` from `socket` or `connect` (`ENOENT`: no socket file;
    ///   `ECONNREFUSED`: nobody listens; `EACCES`; `ENAMETOOLONG` for a path over 107 bytes).
    public static func connect(path: String) throws(Errno) -> Int32 {
        guard fits(path) else { throw Errno(call: "connect", subject: path, code: ENAMETOOLONG) }
        let fd = try DescriptorReserve.socket(
            family: AF_UNIX, type: Int32(SOCK_STREAM.rawValue), protocol: 0, subject: path)
        var address = makeAddress(path)
        do throws(Errno) {
            // A connect interrupted by a signal goes on asynchronously; retrying it on EINTR
            // gives EALREADY or EISCONN on Linux, the latter meaning success.
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == -1 {
                let code = errno
                if code != EINTR { throw Errno(call: "connect", subject: path, code: code) }
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = try blockingSyscall("poll", path) { poll(&descriptor, 1, -1) }
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = try blockingSyscall("getsockopt", path) { getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) }
                if failure != 0 { throw Errno(call: "connect", subject: path, code: failure) }
            }
        } catch {
            try? Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// Whether `path` fits `sun_path` with its terminating NUL (107 bytes at most on Linux).
    public static func fits(_ path: String) -> Bool {
        path.utf8.count < MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size
    }

    public static func makeAddress(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
