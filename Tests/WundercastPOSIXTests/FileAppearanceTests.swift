import Glibc
import Testing
import WundercastPOSIX
import WundercastTestSupport

/// Waiting for systemd-timesyncd's flag file: woken by inotify, through directories that do
/// not exist yet, and ended by cancellation.
@Suite(.timeLimit(.minutes(1))) struct FileAppearanceTests {
    static let loop = try! EventLoop(name: "test-inotify")

    @Test func aFileAlreadyThereEndsTheWaitAtOnce() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        #expect(await FileAppearance.wait(for: directory, on: Self.loop))
    }

    /// The file appears two directories below the nearest existing one, after the wait began.
    @Test func aFileMadeLaterInNewDirectoriesEndsTheWait() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        let flag = directory + "/timesync/inner/synchronized"
        defer {
            unlink(flag)
            rmdir(directory + "/timesync/inner")
            rmdir(directory + "/timesync")
            rmdir(directory)
        }
        let began = Observed(0)
        let waiter = Task { await FileAppearance.wait(for: flag, on: Self.loop) { began.update { $0 += 1 } } }
        _ = try await began.wait { $0 >= 1 }
        #expect(mkdir(directory + "/timesync", 0o755) == 0)
        _ = try await began.wait { $0 >= 2 }  // now watching timesync/
        #expect(mkdir(directory + "/timesync/inner", 0o755) == 0)
        _ = try await began.wait { $0 >= 3 }
        let fd = open(flag, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        close(fd)
        #expect(await waiter.value)
    }

    @Test func cancellingEndsTheWaitWithoutTheFile() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let began = Observed(0)
        let waiter = Task {
            await FileAppearance.wait(for: directory + "/never", on: Self.loop) { began.update { $0 += 1 } }
        }
        _ = try await began.wait { $0 >= 1 }
        waiter.cancel()
        #expect(await waiter.value == false)
    }
}
