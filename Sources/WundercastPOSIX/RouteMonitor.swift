#if canImport(Glibc)
import Glibc
#endif

/// Watches the kernel's routing messages (rtnetlink, `AF_NETLINK`/`NETLINK_ROUTE`) for the
/// network coming back: links that come up, new addresses, new routes (``RouteChange``).
/// Its socket joins the groups `RTMGRP_LINK`, `RTMGRP_IPV4_IFADDR`, `RTMGRP_IPV6_IFADDR`,
/// `RTMGRP_IPV4_ROUTE` and `RTMGRP_IPV6_ROUTE` and is read on an ``EventLoop``. Needs
/// `AF_NETLINK` in the unit's `RestrictAddressFamilies=`.
///
/// `onChange` runs on the loop's thread with the changes of the datagrams read at one
/// wake-up of the loop, when there is at least one (a lost-messages report, `ENOBUFS`, counts
/// as a change: something happened). ``close()``
/// (any thread but the loop's) stops watching and closes the socket.
public final class RouteMonitor: Sendable {
    /// `RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE`.
    public static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400
    private let loop: EventLoop
    private let fd: Int32
    private let registration: EventLoop.Registration

    /// Opens and binds the socket and starts watching on `loop`.
    /// - Throws: ``Errno`` from `socket` (e.g. `EAFNOSUPPORT` where `AF_NETLINK` is not
    ///   allowed), `bind` or `epoll_ctl`.
    public convenience init(
        loop: EventLoop, onChange: @escaping @Sendable ([RouteChange]) -> Void
    ) async throws(Errno) {
        try await self.init(watching: try Self.open(), loop: loop, onChange: onChange)
    }

    /// Watches `fd` (a datagram socket of rtnetlink messages; tests pass one end of a
    /// socket pair) and owns it: it is closed by ``close()``, or here when watching fails.
    init(
        watching fd: Int32, loop: EventLoop, onChange: @escaping @Sendable ([RouteChange]) -> Void
    ) async throws(Errno) {
        self.loop = loop
        self.fd = fd
        let result: Result<EventLoop.Registration, Errno> = await loop.perform {
            do throws(Errno) {
                return .success(
                    try loop.register(fd, for: .readable) { _ in
                        let changes = Self.drain(fd)
                        if !changes.isEmpty { onChange(changes) }
                    })
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let registration): self.registration = registration
        case .failure(let error):
            try? Descriptor.close(fd)
            throw error
        }
    }

    /// Stops watching and closes the socket, on the loop (returns at once). Call once.
    public func close() {
        let (loop, registration, fd) = (self.loop, self.registration, self.fd)
        let close: @Sendable () -> Void = {
            loop.unregister(registration)
            try? Descriptor.close(fd)
        }
        if !loop.post(close) { try? Descriptor.close(fd) }
    }

    /// A non-blocking `NETLINK_ROUTE` socket bound to ``groups``.
    static func open() throws(Errno) -> Int32 {
        let fd = try DescriptorReserve.socket(
            family: AF_NETLINK, type: Int32(SOCK_RAW.rawValue | SOCK_NONBLOCK.rawValue), protocol: 0,
            subject: "AF_NETLINK")
        // struct sockaddr_nl: nl_family (u16), nl_pad (u16), nl_pid (u32: 0, the kernel picks), nl_groups (u32).
        var address = [UInt8](repeating: 0, count: 12)
        address.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt16(AF_NETLINK), toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        do throws(Errno) {
            _ = try blockingSyscall("bind", "AF_NETLINK groups") {
                address.withUnsafeBytes { bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12) }
            }
        } catch {
            try? Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// Reads every datagram waiting (at most 64 KiB each, at most 64 of them per call) and
    /// returns their changes; a lost-messages report (`ENOBUFS`) counts as a new route.
    static func drain(_ fd: Int32) -> [RouteChange] {
        var changes: [RouteChange] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<64 {
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if received < 0 {
                if errno == EINTR { continue }
                if errno == ENOBUFS { changes.append(.newRoute) }
                break
            }
            if received == 0 { break }
            changes += RouteMessages.changes(in: buffer[..<received])
        }
        return changes
    }
}
