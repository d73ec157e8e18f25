#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address with a port, as `connect(2)` takes it: from a numeric host
/// (``init(numericHost:port:)``, no lookup) or from a name lookup
/// (``lookUp(host:port:)``, blocking).
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    /// `sockaddr_in` or `sockaddr_in6`, in a `sockaddr_storage`.
    var storage: sockaddr_storage
    /// The length of the address in ``storage``.
    var length: socklen_t

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 { Int32(storage.ss_family) }

    /// `host` when it is a numeric IPv4 (`127.0.0.1`) or IPv6 (`::1`) address, with `port`;
    /// `nil` for anything else (a name such as `localhost`, which needs ``lookUp(host:port:)``).
    /// Never asks a resolver: `inet_pton` only. A port outside 0...65535 is `nil` too.
    public init?(numericHost host: String, port: Int) {
        guard let port = UInt16(exactly: port) else { return nil }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self.init(v4)
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self.init(v6)
        } else {
            return nil
        }
    }

    /// `address`, a `sockaddr_in` or a `sockaddr_in6`.
    private init<Address>(_ address: Address) {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            withUnsafeBytes(of: address) { raw.copyMemory(from: $0) }
        }
        self.init(storage: storage, length: socklen_t(MemoryLayout<Address>.size))
    }

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// The port, in host byte order.
    public var port: Int {
        withUnsafeBytes(of: storage) { raw in
            family == AF_INET6
                ? Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
                : Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
        }
    }

    /// `127.0.0.1:2947`, `[::1]:2947` (`inet_ntop`).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
            } else {
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            }
        }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    public static func == (a: SocketAddress, b: SocketAddress) -> Bool {
        let length = Int(a.length)
        return a.length == b.length
            && withUnsafeBytes(of: a.storage) { a in
                withUnsafeBytes(of: b.storage) { b in a.prefix(length).elementsEqual(b.prefix(length)) }
            }
    }

    /// Runs `body` with the address as `connect(2)` takes it.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}

extension SocketAddress {
    /// Why ``lookUp(host:port:)`` found no address: `getaddrinfo`'s `EAI_*` code and its text.
    public struct LookupError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The `EAI_*` code (e.g. `EAI_NONAME`, `EAI_AGAIN`).
        public var code: Int32
        public init(code: Int32) { self.code = code }
        /// `gai_strerror(code)`, e.g. `Name or service not known`.
        public var description: String { String(cString: gai_strerror(code)) }
    }

    /// The stream-socket addresses of `host` (a name or a numeric address) and `port`, in the
    /// order `getaddrinfo` gives them (RFC 3484: IPv6 first by default, so `localhost` gives
    /// `::1` before `127.0.0.1`; PITFALLS, libgps), duplicates dropped; never empty.
    ///
    /// Blocks for as long as the resolver takes (DNS, `/etc/hosts`): never call it on an event
    /// loop's thread. It cannot be interrupted.
    public static func lookUp(host: String, port: Int) -> Result<[SocketAddress], LookupError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else { return .failure(LookupError(code: code)) }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var next = list
        while let entry = next {
            next = entry.pointee.ai_next
            let family = entry.pointee.ai_family
            guard family == AF_INET || family == AF_INET6, let address = entry.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            let length = min(Int(entry.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
            }
            let found = SocketAddress(storage: storage, length: socklen_t(length))
            if !addresses.contains(found) { addresses.append(found) }
        }
        guard !addresses.isEmpty else { return .failure(LookupError(code: EAI_NONAME)) }
        return .success(addresses)
    }
}
