import Glibc
import Testing
import WundercastTestSupport

@testable import WundercastPOSIX

/// The rtnetlink reader (issue 8, point 2): which messages mean "the network is back", read
/// defensively from any bytes; and the monitor driven through a socket pair, as the kernel's
/// socket would be.
@Suite struct RouteMonitorTests {
    /// One netlink message: `struct nlmsghdr` (host byte order) and `payload`, padded to 4 bytes.
    static func message(_ type: UInt16, _ payload: [UInt8], length: UInt32? = nil) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 16)
        header.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: length ?? UInt32(16 + payload.count), toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: type, toByteOffset: 4, as: UInt16.self)
        }
        let bytes = header + payload
        return bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    static func words(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value) { Array($0) } }
    }

    /// `struct ifinfomsg` for interface `index`.
    static func link(index: UInt32, flags: UInt32, change: UInt32) -> [UInt8] {
        message(RouteMessages.newLink, [0, 0, 0, 0] + words([index, flags, change]))
    }

    static let up: UInt32 = 0x1 | 0x40 | 0x10000  // IFF_UP | IFF_RUNNING | IFF_LOWER_UP
    static let address = message(RouteMessages.newAddress, [2, 8, 0, 0] + words([3]))  // AF_INET /8, interface 3
    static let route = message(RouteMessages.newRoute, [2, 24, 0, 0, 254, 4, 0, 1] + words([0]))
    static let clonedRoute = message(RouteMessages.newRoute, [2, 32, 0, 0, 254, 4, 0, 1] + words([0x200]))

    @Test func newAddressesRoutesAndLinksThatComeUpAreChanges() {
        let datagram =
            Self.link(index: 2, flags: Self.up, change: 0x1) + Self.address + Self.route
            + Self.link(index: 4, flags: 0, change: 0x1)  // went down
            + Self.link(index: 5, flags: Self.up, change: 0)  // up all along: another attribute changed
            + Self.message(21, [2, 8, 0, 0] + Self.words([3]))  // RTM_DELADDR
            + Self.message(25, [2, 24, 0, 0, 254, 4, 0, 1] + Self.words([0]))  // RTM_DELROUTE
            + Self.clonedRoute + Self.message(3, Self.words([0]))  // NLMSG_DONE
        #expect(
            RouteMessages.changes(in: datagram) == [.linkUp(interface: 2), .newAddress(interface: 3), .newRoute])
    }

    /// A length that runs past the datagram, or is shorter than a header, ends the reading;
    /// what came before stands. A payload too short for its type is skipped.
    @Test func badLengthsEndTheReading() {
        let good = Self.address
        let overlong = Self.message(
            RouteMessages.newRoute, [2, 24, 0, 0, 254, 4, 0, 1] + Self.words([0]), length: 4096)
        let short = Self.message(RouteMessages.newRoute, [], length: 8)
        let truncatedPayload = Self.message(RouteMessages.newLink, [0, 0, 0, 0] + Self.words([2]))
        #expect(RouteMessages.changes(in: good + overlong + good) == [.newAddress(interface: 3)])
        #expect(RouteMessages.changes(in: good + short + good) == [.newAddress(interface: 3)])
        #expect(RouteMessages.changes(in: truncatedPayload + good) == [.newAddress(interface: 3)])
        #expect(RouteMessages.changes(in: good.dropLast(1)) == [])
        #expect(RouteMessages.changes(in: [UInt8]()) == [])
    }

    /// Random bytes (a seeded generator, so a failure repeats) never trap, and yield at most
    /// one change per 16 bytes.
    @Test func randomBytesNeverTrap() {
        var generator = SplitMix(seed: 0x5EED)
        for round in 0..<2000 {
            var bytes = (0..<Int.random(in: 0..<512, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if round % 2 == 0, bytes.count >= 16 {
                // A plausible header: a length within the buffer, a type we read.
                let length = UInt32(Int.random(in: 0...bytes.count, using: &generator))
                let type: UInt16 = [16, 20, 24].randomElement(using: &generator)!
                bytes.withUnsafeMutableBytes { raw in
                    raw.storeBytes(of: length, toByteOffset: 0, as: UInt32.self)
                    raw.storeBytes(of: type, toByteOffset: 4, as: UInt16.self)
                }
            }
            #expect(RouteMessages.changes(in: bytes).count <= bytes.count / 16)
        }
    }

    /// The monitor on an event loop, fed through a datagram socket pair: the changes of every
    /// datagram, in order; a datagram without changes adds none.
    @Test func theMonitorReportsEachDatagramWithChanges() async throws {
        var pair: [Int32] = [0, 0]
        _ = try blockingSyscall("socketpair", "test") {
            socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair)
        }
        defer { close(pair[1]) }
        try Descriptor.setNonBlocking(pair[0])
        let loop = try EventLoop(name: "test-route")
        defer { loop.stop() }
        let seen = Observed<[[RouteChange]]>([])
        let monitor = try await RouteMonitor(watching: pair[0], loop: loop) { changes in
            seen.update { $0.append(changes) }
        }
        defer { monitor.close() }
        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(pair[1], $0.baseAddress, $0.count, 0) }
        }
        send(Self.link(index: 4, flags: 0, change: 0x1) + Self.clonedRoute)  // nothing to report
        send(Self.link(index: 1, flags: Self.up, change: 0x1) + Self.address)
        send(Self.route)
        // One report per wake-up of the loop: the three datagrams may come in one or several.
        let all = try await seen.wait(timeout: .seconds(30), "the changes") { $0.joined().count >= 3 }
        #expect(Array(all.joined()) == [.linkUp(interface: 1), .newAddress(interface: 3), .newRoute])
        #expect(!all.contains { $0.isEmpty }, "no report without a change")
    }

    /// Where the machine has rtnetlink (any Linux, unless seccomp forbids `AF_NETLINK`), the
    /// real socket opens and binds to the groups.
    @Test func theKernelSocketOpens() throws {
        let fd = try RouteMonitor.open()
        close(fd)
    }
}
