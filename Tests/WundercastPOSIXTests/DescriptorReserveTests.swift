import Glibc
import Testing
import WundercastPOSIX

/// The descriptor reserve: a descriptor is kept only below the limit less the reserve.
@Suite struct DescriptorReserveTests {
    @Test(arguments: [(7, 16, true), (8, 16, false), (15, 16, false), (119, 128, true), (120, 128, false)])
    func aDescriptorIsAdmittedOnlyBelowTheReserve(_ fd: Int32, _ limit: Int, _ admitted: Bool) {
        #expect(DescriptorReserve.admits(fd, limit: limit) == admitted)
    }

    @Test func withoutALimitEveryDescriptorIsAdmitted() {
        #expect(DescriptorReserve.admits(1 << 30, limit: nil))
    }

    /// A descriptor at the top of this process's limit (`dup2` to `limit − 1`) is closed and
    /// refused with `EMFILE`, naming the limit; one below the reserve is kept.
    @Test func aDescriptorInTheReserveIsClosedAndRefusedNamingTheLimit() throws {
        let limit = try #require(DescriptorLimit.soft())
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        // The top number: no other code of the test process takes it (lowest free first).
        let top = Int32(limit - 1)
        #expect(dup2(fd, top) == top)
        #expect(
            throws: Errno(
                call: "open", subject: "/dev/null (the last 8 of the descriptor limit \(limit) are kept free)",
                code: EMFILE)
        ) {
            _ = try DescriptorReserve.claim(top, "open", "/dev/null")
        }
        #expect(fcntl(top, F_GETFD) == -1 && errno == EBADF, "closed")
        #expect(try DescriptorReserve.claim(fd, "open", "/dev/null") == fd)
    }
}
