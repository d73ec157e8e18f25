import Glibc
import Testing
import WundercastPOSIX
import WundercastTestSupport

@Suite struct WholeFileTests {
    @Test func atomicWriteReplacesAndReadsBack() throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/decision"
        defer { unlink(path) }
        try WholeFile.writeAtomically(Array("always\n".utf8), to: path)
        #expect(try WholeFile.read(path: path, limit: 100) == Array("always\n".utf8))
        try WholeFile.writeAtomically(Array("denied\n".utf8), to: path, permissions: 0o600)
        #expect(try WholeFile.read(path: path, limit: 100) == Array("denied\n".utf8))
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        // No temporary file is left beside it.
        #expect(try Directory.names(in: directory) == ["decision"])
    }

    @Test func readRefusesWhatIsNotARegularFile() throws {
        #expect(throws: WholeFile.ReadError.notRegularFile) { try WholeFile.read(path: "/dev/null", limit: 10) }
        #expect(throws: WholeFile.ReadError.system(Errno(call: "read", subject: "/", code: EISDIR))) {
            try WholeFile.read(path: "/", limit: 10)
        }
    }

    @Test func atomicWriteIntoMissingDirectoryFails() {
        #expect(throws: Errno.self) { try WholeFile.writeAtomically([1], to: "/nonexistent/dir/file") }
    }
}
