import Foundation
import Testing
import WundercastPOSIX
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// TCP client sockets and addresses for the event loop (the gpsd reader's connection), and the
/// loop's clock.
@Suite struct TCPSocketTests {
    @Test(arguments: [
        ("127.0.0.1", 2947, "127.0.0.1:2947"), ("::1", 2947, "[::1]:2947"), ("10.1.2.3", 1, "10.1.2.3:1"),
        ("fe80::1", 65535, "[fe80::1]:65535"),
    ])
    func numericAddresses(_ host: String, _ port: Int, _ text: String) throws {
        let address = try #require(SocketAddress(numericHost: host, port: port))
        #expect(address.description == text)
        #expect(address.port == port)
        #expect(address.family == (host.contains(":") ? AF_INET6 : AF_INET))
    }

    /// Names and malformed numbers are not numeric: they need a lookup (off the loop).
    @Test(arguments: ["localhost", "gpsd.example", "127.0.0.256", "1.2.3", "", " 127.0.0.1", "::1%lo"])
    func notNumeric(_ host: String) {
        #expect(SocketAddress(numericHost: host, port: 2947) == nil)
    }

    @Test func aPortOutOfRangeIsNoAddress() {
        #expect(SocketAddress(numericHost: "127.0.0.1", port: 65536) == nil)
        #expect(SocketAddress(numericHost: "127.0.0.1", port: -1) == nil)
    }

    @Test func lookingUpLocalhostGivesLoopbackAddresses() throws {
        let addresses = try SocketAddress.lookUp(host: "localhost", port: 2947).get()
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.port == 2947 })
        #expect(addresses.allSatisfy { ["127.0.0.1:2947", "[::1]:2947"].contains($0.description) }, "\(addresses)")
        #expect(Set(addresses.map(\.description)).count == addresses.count, "no duplicates")
        let numeric = try SocketAddress.lookUp(host: "127.0.0.1", port: 80).get()
        #expect(numeric == [SocketAddress(numericHost: "127.0.0.1", port: 80)!])
    }

    /// Connecting where nothing listens fails (at once, or when the socket becomes writable);
    /// connecting to a listener succeeds, and what is sent arrives; a peer that leaves is EOF
    /// for `receive` and `EPIPE` (no SIGPIPE) for `send`.
    @Test func connectSendReceiveAndAPeerThatLeaves() throws {
        let (listener, port) = try Self.listen()
        defer { close(listener) }

        let address = try #require(SocketAddress(numericHost: "127.0.0.1", port: port))
        let fd: Int32
        switch try TCPSocket.connect(nonBlocking: address) {
        case .connected(let descriptor): fd = descriptor
        case .inProgress(let descriptor):
            fd = descriptor
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            #expect(poll(&ready, 1, 5000) == 1)
            try TCPSocket.connectResult(fd, to: address)
        }
        defer { try? Descriptor.close(fd) }
        let peer = accept(listener, nil, nil)
        try #require(peer >= 0)

        var buffer = [UInt8](repeating: 0, count: 64)
        let nothing = try buffer.withUnsafeMutableBytes { try TCPSocket.receive(fd, into: $0, subject: "test") }
        #expect(nothing == .wouldBlock)
        #expect(try TCPSocket.send(fd, Array("?WATCH;\n".utf8), subject: "test") == .done(8))
        #expect(recv(peer, &buffer, buffer.count, 0) == 8)
        #expect(Array(buffer.prefix(8)) == Array("?WATCH;\n".utf8))
        #expect(write(peer, "hi\n", 3) == 3)
        var pollIn = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pollIn, 1, 5000) == 1)
        let three = try buffer.withUnsafeMutableBytes { try TCPSocket.receive(fd, into: $0, subject: "test") }
        #expect(three == .done(3))

        close(peer)
        #expect(poll(&pollIn, 1, 5000) == 1)
        let end = try buffer.withUnsafeMutableBytes { try TCPSocket.receive(fd, into: $0, subject: "test") }
        #expect(end == .done(0), "EOF")
        // The first send after the peer left may still be taken (and answered by a reset).
        var failure: Errno?
        for _ in 0..<10 where failure == nil {
            do throws(Errno) {
                _ = try TCPSocket.send(fd, [1], subject: "test")
                usleep(10_000)
            } catch {
                failure = error
            }
        }
        #expect([EPIPE, ECONNRESET].contains(failure?.code ?? 0), "\(String(describing: failure))")
    }

    @Test func connectingWhereNothingListensFails() throws {
        let (listener, port) = try Self.listen()
        close(listener)  // the port is free now: nothing listens there
        let address = try #require(SocketAddress(numericHost: "127.0.0.1", port: port))
        do throws(Errno) {
            switch try TCPSocket.connect(nonBlocking: address) {
            case .connected(let fd):
                try? Descriptor.close(fd)
                Issue.record("connected where nothing listens")
            case .inProgress(let fd):
                defer { try? Descriptor.close(fd) }
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                #expect(poll(&ready, 1, 5000) == 1)
                #expect(throws: Errno.self) { try TCPSocket.connectResult(fd, to: address) }
            }
        } catch {
            #expect(error.call == "connect")
            #expect(error.code == ECONNREFUSED)
        }
    }

    /// The loop's clock: timers on the loop's thread at their deadline, never early; a
    /// cancelled one never runs.
    @Test func continuousLoopClockTimersRunOnTheLoop() async throws {
        let loop = try EventLoop(name: "test-loopclock")
        defer { loop.stop() }
        let clock = ContinuousLoopClock(loop: loop)
        let seen = Observed<[String]>([])
        await loop.perform {
            let start = clock.now
            for (name, milliseconds) in [("b", 40), ("cancelled", 20), ("a", 20)] {
                let deadline = start + .milliseconds(milliseconds)
                let timer = clock.schedule(at: deadline, name: name) {
                    let early = clock.now < deadline
                    seen.update { $0.append("\(name)\(early ? " early" : "")\(loop.isCurrent ? "" : " off the loop")") }
                }
                if name == "cancelled" { clock.cancel(timer) }
            }
        }
        let order = try await seen.wait(timeout: .seconds(10), "two timers") { $0.count == 2 }
        #expect(order == ["a", "b"])
    }

    /// A listening TCP socket on 127.0.0.1 and its port.
    static func listen() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && Glibc.listen(fd, 4) == 0
            }
        }
        try #require(ok)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
