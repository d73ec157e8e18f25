import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `watch` ends with the process that started it (`PR_SET_PDEATHSIG`, issue 18 item 2), even
/// when its output never hangs up: here the test itself holds the read end of its stdout, as
/// another child of a bar may (``RealBarTests`` kill real bars).
@Suite struct WatchParentDeathTests {
    @Test func watchEndsWhenItsParentIsKilled() async throws {
        let socket = try TemporarySocketPath()
        // The shell starts the watch as its child (and stays: no exec), prints its pid and waits.
        let parent = try ChildProcess(
            [
                "/bin/sh", "-c", "\"$0\" --socket \"$1\" watch & echo $!; wait", try Binaries.path("wundercastctl"),
                socket.path,
            ],
            separateStderr: true)
        defer { parent.signalGroup(SIGKILL) }
        let watch = try #require(Int32(try await parent.output.waitFor("the watch's pid") { Int32($0) != nil }))
        // It runs: its first attempt failed (no daemon) and it said so.
        _ = try await parent.errorOutput.waitFor(containing: "trying again")
        parent.signal(SIGKILL)  // the shell alone
        #expect(try await processEnded(watch, within: .seconds(15)), "the watch outlived its parent")
    }
}
