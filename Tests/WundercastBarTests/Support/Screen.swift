import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A bar or display server in a PID namespace of its own (`unshare --pid --fork --kill-child`):
/// killing it (``stop()``, or `deinit`) ends every process it started, the bar's
/// `wundercastctl watch` included, whatever process groups they made for themselves.
/// ``stop()`` sends SIGKILL to the process group of `unshare` and its child, the namespace's
/// first process (util-linux's `unshare --fork` ignores SIGTERM while it waits; and
/// `--kill-child`'s parent-death signal alone is not enough: the kernel clears it when
/// `setpriv` changes the user). When the namespace's first process dies, the kernel kills
/// everything else in it.
final class Contained: @unchecked Sendable {
    let process: ChildProcess

    /// Runs `arguments` (an absolute path first); `asNobody` runs it as uid/gid 65534 (sway
    /// refuses root). With `killableAlone` the command is not the namespace's first process but
    /// a child of it (a `sleep` that stays): the command can then be killed alone, and what it
    /// leaves behind lives on in the namespace (``PIDNamespace``) until ``stop()``.
    init(
        _ arguments: [String], environment: [String: String], asNobody: Bool = false, killableAlone: Bool = false
    ) throws {
        var command = [try Tool.require("unshare"), "--pid", "--fork", "--kill-child"]
        if asNobody {
            command += [try Tool.require("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        if killableAlone { command += ["/bin/sh", "-c", "\"$@\" & exec sleep infinity", "sh"] }
        process = try ChildProcess(command + arguments, environment: environment)
    }

    /// The namespace its processes run in.
    func namespace() throws -> PIDNamespace { try PIDNamespace(ofChildOf: process.pid) }

    var output: OutputLog { process.output }

    func stop() { process.signalGroup(SIGKILL) }

    deinit { stop() }
}

/// Screenshots read back by tesseract.
enum OCR {
    /// The text tesseract reads in the image at `path` (PNG or PNM), one line per line of text.
    static func read(_ path: String) async throws -> String {
        let result = try await runProcess(
            try Tool.require("tesseract"), [path, "stdout", "--psm", "6"],
            environment: ["PATH": "/usr/bin:/bin", "OMP_THREAD_LIMIT": "1"])
        return result.stdout
    }

    /// Takes screenshots with `capture` (which writes an image and returns its path) and reads
    /// them until the text satisfies `accept`, for at most `timeout`: the bar draws on its own
    /// time after its command printed, so this is a bounded retry of the screenshot, not a wait
    /// for a fixed time. Returns the last text read (the caller checks it).
    static func readUntil(
        timeout: Duration = .seconds(30), capture: @escaping @Sendable () async throws -> String?,
        _ accept: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let last = Observed("")
        do {
            return try await withDeadline(timeout, "the bar's text on screen") {
                while true {
                    try Task.checkCancellation()
                    // No image (the screenshot failed): the next attempt is a new screenshot.
                    guard let image = try await capture() else { continue }
                    let text = try await read(image)
                    last.update { $0 = text }
                    if accept(text) { return text }
                }
            }
        } catch is DeadlineExceeded {
            return last.value
        }
    }
}
