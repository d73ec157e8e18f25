import Testing
@testable import WundercastSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A `malloc`ed, NULL-terminated strv as `sd_listen_fds_with_names` returns it.
private func strv(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
    let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (strings.count + 1))!
        .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: strings.count + 1)
    for (index, string) in strings.enumerated() { array[index] = strdup(string) }
    array[strings.count] = nil
    return array
}

@Test func socketsPairFdsWithNames() {
    let names = strv(["control", "extra"])
    defer { ListenSockets.freeNames(names) }
    let sockets = ListenSockets.sockets(count: 2, names: names)
    #expect(sockets.map(\.fd) == [3, 4])
    #expect(sockets.map(\.name) == ["control", "extra"])
}

@Test func socketsWithoutNamesAreUnknown() {
    #expect(ListenSockets.sockets(count: 2, names: nil).map(\.name) == ["unknown", "unknown"])
    #expect(ListenSockets.sockets(count: 0, names: nil).isEmpty)
    let short = strv(["control"])
    defer { ListenSockets.freeNames(short) }
    #expect(ListenSockets.sockets(count: 2, names: short).map(\.name) == ["control", "unknown"])
}

@Test func freeNamesAcceptsNilAndEmpty() {
    ListenSockets.freeNames(nil)
    ListenSockets.freeNames(strv([]))
}

extension ProcessEnvironmentTests {
    /// `sd_listen_fds_with_names` in this process. Socket activation passes fd 3, which in a
    /// test process may already belong to someone else: the test never closes or replaces
    /// it, and restores its close-on-exec flag, which libsystemd sets. End-to-end activation
    /// (`systemd-socket-activate`) belongs to the daemon's integration tests.
    @Suite struct ListenSocketsTests {
        /// Runs `body` with fd 3 open; closes it afterwards only if this test opened it.
        @discardableResult
        private func withFD3<T>(_ body: () throws -> T) throws -> T {
            let flags = fcntl(3, F_GETFD)
            if flags >= 0 {
                defer { _ = fcntl(3, F_SETFD, flags) }
                return try body()
            }
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            let duplicate = fcntl(fd, F_DUPFD, 3)  // lowest free fd >= 3: 3 unless just taken
            close(fd)
            try #require(duplicate >= 0)
            if duplicate != 3 {
                close(duplicate)
                return try withFD3(body)
            }
            defer { close(3) }
            return try body()
        }

        @Test func takesNamedSocketAndUnsetsEnvironment() throws {
            let sockets = try withFD3 {
                withEnvironment(["LISTEN_PID": String(getpid()), "LISTEN_FDS": "1", "LISTEN_FDNAMES": "control"]) {
                    let sockets = ListenSockets.take()
                    #expect(environment("LISTEN_PID") == nil)
                    #expect(environment("LISTEN_FDS") == nil)
                    #expect(environment("LISTEN_FDNAMES") == nil)
                    #expect((fcntl(3, F_GETFD) & FD_CLOEXEC) != 0)
                    #expect(ListenSockets.take().isEmpty)  // taken once
                    return sockets
                }
            }
            #expect(sockets.map(\.fd) == [3])
            #expect(sockets.map(\.name) == ["control"])
        }

        @Test func unnamedSocketIsUnknown() throws {
            let sockets = try withFD3 {
                withEnvironment(["LISTEN_PID": String(getpid()), "LISTEN_FDS": "1", "LISTEN_FDNAMES": nil]) {
                    ListenSockets.take()
                }
            }
            #expect(sockets.map(\.name) == ["unknown"])
        }

        @Test func socketsForAnotherProcessAreIgnored() {
            let otherPID = String(getpid() == 1 ? 2 : 1)
            withEnvironment(["LISTEN_PID": otherPID, "LISTEN_FDS": "1", "LISTEN_FDNAMES": "control"]) {
                #expect(ListenSockets.take().isEmpty)
                #expect(environment("LISTEN_FDS") == nil)
            }
            withEnvironment(["LISTEN_PID": nil, "LISTEN_FDS": nil, "LISTEN_FDNAMES": nil]) {
                #expect(ListenSockets.take().isEmpty)
            }
        }

        @Test func namesNotMatchingCountThrow() throws {
            try withFD3 {
                withEnvironment(["LISTEN_PID": String(getpid()), "LISTEN_FDS": "1", "LISTEN_FDNAMES": "control:extra"])
                {
                    #expect(throws: SystemdError(function: "sd_listen_fds_with_names", errno: EINVAL)) {
                        try ListenSockets.takeOrThrow()
                    }
                }
            }
        }
    }
}
