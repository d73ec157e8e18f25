import Glibc
import Testing
import WundercastPOSIX

@Suite struct SyscallTests {
    @Test func emptyNonBlockingPipeWouldBlock() throws {
        var fds: [Int32] = [0, 0]
        _ = try blockingSyscall("pipe", "test") { pipe(&fds) }
        try Descriptor.setNonBlocking(fds[0])
        defer {
            try? Descriptor.close(fds[0])
            try? Descriptor.close(fds[1])
        }
        var byte: UInt8 = 0
        #expect(try syscall("read", "pipe") { read(fds[0], &byte, 1) } == .wouldBlock)
        var one: UInt8 = 7
        #expect(try syscall("write", "pipe") { write(fds[1], &one, 1) } == .done(1))
        #expect(try syscall("read", "pipe") { read(fds[0], &byte, 1) } == .done(1))
        #expect(byte == 7)
    }

    @Test func failureIsATypedErrno() {
        #expect(throws: Errno(call: "open", subject: "/nonexistent/x", code: ENOENT)) {
            try blockingSyscall("open", "/nonexistent/x") { open("/nonexistent/x", O_RDONLY) }
        }
        #expect(
            Errno(call: "open", subject: "/nonexistent/x", code: ENOENT).description
                == "open(/nonexistent/x): No such file or directory")
    }

    @Test func blockingSyscallReportsEAGAINAsError() throws {
        var fds: [Int32] = [0, 0]
        _ = try blockingSyscall("pipe", "test") { pipe(&fds) }
        try Descriptor.setNonBlocking(fds[0])
        defer {
            try? Descriptor.close(fds[0])
            try? Descriptor.close(fds[1])
        }
        var byte: UInt8 = 0
        #expect(throws: Errno(call: "read", subject: "pipe", code: EAGAIN)) {
            try blockingSyscall("read", "pipe") { read(fds[0], &byte, 1) }
        }
    }
}
