import Foundation
import Testing
import WundercastPOSIX
import WundercastTestSupport

@Suite struct PeerCredentialsTests {
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        _ = try blockingSyscall("socketpair", "test") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) }
        return (fds[0], fds[1])
    }

    @Test func peerCredentialsAreThisProcesssOwn() throws {
        let (a, b) = try socketPair()
        defer {
            close(a)
            close(b)
        }
        #expect(try UnixSocket.peerCredentials(a) == PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid()))
    }

    @Test func supplementaryGroupsAreThoseOfThePeer() throws {
        let (a, b) = try socketPair()
        defer {
            close(a)
            close(b)
        }
        var groups = [gid_t](repeating: 0, count: Int(getgroups(0, nil)))
        _ = getgroups(Int32(groups.count), &groups)
        for group in groups { #expect(try UnixSocket.peerHasSupplementaryGroup(a, group)) }
        let absent = (groups.max() ?? 0) + 4711
        #expect(try UnixSocket.peerHasSupplementaryGroup(a, absent) == false)
    }

    @Test func credentialsOfANonSocketAreAnErrnoNamingTheCall() throws {
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        #expect(throws: Errno(call: "getsockopt", subject: "SO_PEERCRED of fd \(fd)", code: ENOTSOCK)) {
            try UnixSocket.peerCredentials(fd)
        }
    }

    /// A peer in 100 supplementary groups (more than the 64 read without allocating), made by
    /// `setpriv --groups` running `socat` as a client.
    @Test(.enabled(if: geteuid() == 0, "needs root to set supplementary groups with setpriv"))
    func aPeerInManyGroupsIsReadInFull() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let listener = try UnixSocket.listen(path: path)
        defer { close(listener) }
        let groups = (1...100).map(String.init).joined(separator: ",")
        let client = try ChildProcess(
            ["/usr/bin/setpriv", "--groups", groups, "/usr/bin/socat", "-u", "UNIX-CONNECT:\(path)", "-"],
            separateStderr: true)
        defer { client.signalGroup(SIGKILL) }
        // The connection carries the credentials of its connect(2).
        var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 10_000) == 1)
        guard case .done(let fd) = try UnixSocket.accept(listener) else {
            Issue.record("no connection from socat: \(client.errorOutput.rawText)")
            return
        }
        defer { close(fd) }
        #expect(try UnixSocket.peerHasSupplementaryGroup(fd, 100))
        #expect(try UnixSocket.peerHasSupplementaryGroup(fd, 1))
        #expect(try UnixSocket.peerHasSupplementaryGroup(fd, 101) == false)
    }

    @Test func groupNamesResolveAndAMissingGroupIsNil() throws {
        #expect(try GroupDatabase.gid(named: "root") == 0)
        #expect(try GroupDatabase.gid(named: "no-such-group-wundercast-test") == nil)
    }

    /// The socket file gets `Mode=` whatever the umask (here 0o077 would make it 0600).
    @Test(arguments: [UInt32(0o666), 0o660, 0o600]) func listenSetsTheModeOfTheSocketFile(mode: UInt32) throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let fd = try UnixSocket.listen(path: path, mode: mode)
        defer { close(fd) }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(UInt32(info.st_mode) & 0o7777 == mode)
    }
}
