#if canImport(Glibc)
import Glibc
#endif

/// An `AF_UNIX` datagram socket bound at a path: the receiving end of `sd_notify`, or a
/// stand-in for journald's `/run/systemd/journal/socket` (see ``JournalStandIn``). Unlinks the
/// path on `close()`. Not for use from several threads at once.
public final class DatagramSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var call: String
        public var errno: Int32
        public var description: String { "\(call): \(String(cString: strerror(errno)))" }

        public init(call: String, errno: Int32) {
            self.call = call
            self.errno = errno
        }
    }

    /// One received datagram and, on a socket made with `passCredentials`, the process id of
    /// its sender (what journald records as `_PID`; a native datagram does not carry it).
    public struct Datagram: Sendable {
        public var bytes: [UInt8]
        public var senderPID: pid_t?

        public init(bytes: [UInt8], senderPID: pid_t?) {
            self.bytes = bytes
            self.senderPID = senderPID
        }
    }

    public let path: String
    public private(set) var fd: Int32

    /// Binds a new socket at `path` (which must not exist). With `passCredentials`, the kernel
    /// attaches the sender's credentials to every datagram (`SO_PASSCRED`), as journald asks.
    public init(path: String, passCredentials: Bool = false) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", errno: errno) }
        if passCredentials {
            var on: Int32 = 1
            guard setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                let error = errno
                Glibc.close(fd)
                throw Failure(call: "setsockopt SO_PASSCRED", errno: error)
            }
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(path)")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw Failure(call: "bind \(path)", errno: error)
        }
    }

    /// The next queued datagram, or `nil` when none is queued. A datagram sent on a local
    /// socket is queued before `sendmsg` returns, so no waiting is needed.
    public func receive() -> [UInt8]? {
        receiveDatagram()?.bytes
    }

    /// Every queued datagram.
    public func receiveAll() -> [[UInt8]] {
        var result: [[UInt8]] = []
        while let datagram = receive() { result.append(datagram) }
        return result
    }

    /// `SCM_CREDENTIALS` of `<sys/socket.h>` (a glibc enum under `_GNU_SOURCE`, not imported).
    static let credentialsMessageType: Int32 = 2

    /// The next queued datagram with its sender's process id (when the socket passes
    /// credentials), or `nil` when none is queued.
    public func receiveDatagram() -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        // Room for one SCM_CREDENTIALS message (a struct ucred of 12 bytes), 8-byte aligned.
        var control = [UInt64](repeating: 0, count: 16)
        while true {
            var controlLength = 0
            let n = buffer.withUnsafeMutableBytes { data in
                control.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var message = msghdr()
                        message.msg_iov = vectorPointer
                        message.msg_iovlen = 1
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlBytes.count
                        let n = recvmsg(fd, &message, Int32(MSG_DONTWAIT) | Int32(MSG_CMSG_CLOEXEC))
                        controlLength = Int(message.msg_controllen)
                        return n
                    }
                }
            }
            if n >= 0 {
                let pid = control.withUnsafeBytes { Self.senderPID(control: $0, length: controlLength) }
                return Datagram(bytes: Array(buffer[0..<n]), senderPID: pid)
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// The `pid` of an `SCM_CREDENTIALS` control message among the first `length` bytes of
    /// `control` (the `CMSG_FIRSTHDR`/`CMSG_NXTHDR` walk: headers and data aligned to `size_t`).
    static func senderPID(control: UnsafeRawBufferPointer, length: Int) -> pid_t? {
        func aligned(_ n: Int) -> Int { (n + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1) }
        let headerSize = MemoryLayout<cmsghdr>.size
        var offset = 0
        while offset + headerSize <= min(length, control.count) {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let messageLength = Int(header.cmsg_len)
            guard messageLength >= headerSize, offset + messageLength <= control.count else { return nil }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == credentialsMessageType,
                messageLength >= aligned(headerSize) + MemoryLayout<pid_t>.size
            {
                // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
                return control.loadUnaligned(fromByteOffset: offset + aligned(headerSize), as: pid_t.self)
            }
            offset += aligned(messageLength)
        }
        return nil
    }

    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
        unlink(path)
    }

    deinit { close() }

    /// A fresh, empty directory under `/tmp` (short enough for `sun_path`).
    public static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/wundercast-test-XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(call: "mkdtemp", errno: errno)
        }
        return String(cString: result)
    }
}
