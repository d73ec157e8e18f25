/// What an rtnetlink message (`NETLINK_ROUTE`, rtnetlink(7)) says about the network coming
/// back: a new address, a new route, or a link that came up. Deletions and everything else
/// are not changes of that kind.
public enum RouteChange: Sendable, Equatable {
    /// `RTM_NEWLINK` with `IFF_UP` and `IFF_LOWER_UP` set (carrier), one of them just changed.
    case linkUp(interface: Int32)
    /// `RTM_NEWADDR`: an address was added (or its lifetimes renewed).
    case newAddress(interface: Int32)
    /// `RTM_NEWROUTE` (not a cloned cache entry).
    case newRoute
}

/// Reads the rtnetlink messages of one datagram defensively: every length is checked against
/// the bytes received (a length that is short, or runs past the end, ends the reading), at
/// most ``maxMessages`` are read, and unknown types are skipped. The layouts are the kernel's
/// ABI in host byte order (`<linux/netlink.h>`, `<linux/rtnetlink.h>`, `<linux/if_link.h>`).
public enum RouteMessages {
    // <linux/netlink.h>, <linux/rtnetlink.h>: stable kernel ABI numbers.
    public static let newLink: UInt16 = 16  // RTM_NEWLINK
    public static let newAddress: UInt16 = 20  // RTM_NEWADDR
    public static let newRoute: UInt16 = 24  // RTM_NEWROUTE
    /// `sizeof(struct nlmsghdr)`.
    static let headerSize = 16
    static let interfaceUp: UInt32 = 0x1  // IFF_UP
    static let interfaceRunning: UInt32 = 0x40  // IFF_RUNNING
    static let lowerUp: UInt32 = 0x10000  // IFF_LOWER_UP
    static let clonedRoute: UInt32 = 0x200  // RTM_F_CLONED
    /// Far more than a datagram of 64 KiB can hold of real messages.
    public static let maxMessages = 4096

    /// The changes in `bytes` (one datagram), in order.
    public static func changes(in bytes: some Collection<UInt8>) -> [RouteChange] {
        let data = Array(bytes)
        var changes: [RouteChange] = []
        var offset = 0
        var count = 0
        while offset + headerSize <= data.count, count < maxMessages {
            count += 1
            let length = Int(u32(data, offset))
            guard length >= headerSize, length <= data.count - offset else { break }
            let type = u16(data, offset + 4)
            let payload = offset + headerSize
            let payloadLength = length - headerSize
            if let change = change(type, data, payload, payloadLength) { changes.append(change) }
            // NLMSG_ALIGN: messages start on 4-byte boundaries.
            offset += (length + 3) & ~3
        }
        return changes
    }

    private static func change(_ type: UInt16, _ data: [UInt8], _ at: Int, _ length: Int) -> RouteChange? {
        switch type {
        case newLink:
            // struct ifinfomsg: family, pad, type (u16), index (i32), flags (u32), change (u32).
            guard length >= 16 else { return nil }
            let flags = u32(data, at + 8)
            let changed = u32(data, at + 12)
            let up = interfaceUp | lowerUp
            guard flags & up == up, changed & (up | interfaceRunning) != 0 else { return nil }
            return .linkUp(interface: Int32(bitPattern: u32(data, at + 4)))
        case newAddress:
            // struct ifaddrmsg: family, prefixlen, flags, scope (u8 each), index (u32).
            guard length >= 8 else { return nil }
            return .newAddress(interface: Int32(bitPattern: u32(data, at + 4)))
        case newRoute:
            // struct rtmsg: 8 bytes of u8 fields, then flags (u32).
            guard length >= 12 else { return nil }
            return u32(data, at + 8) & clonedRoute == 0 ? .newRoute : nil
        default:
            return nil
        }
    }

    /// Netlink is in host byte order.
    private static func u16(_ data: [UInt8], _ at: Int) -> UInt16 {
        data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt16.self) }
    }

    private static func u32(_ data: [UInt8], _ at: Int) -> UInt32 {
        data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
    }
}
