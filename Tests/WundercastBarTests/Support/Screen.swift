import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A bar or display server in a PID namespace of its own (`unshare --pid --fork --kill-child`):
/// killing it (``stop()``, or `deinit`) ends every process it started, the bar's
/// `wundercastctl watch` included, whatever process groups they made for themselves.
/// (util-linux's `unshare --fork` ignores SIGTERM while it waits: SIGKILL it; the namespace's
/// first process then gets SIGKILL too, and with it the whole namespace.)
final class Contained: @unchecked Sendable {
    let process: ChildProcess

    /// Runs `arguments` (an absolute path first); `asNobody` runs it as uid/gid 65534 (sway
    /// refuses root).
    init(_ arguments: [String], environment: [String: String], asNobody: Bool = false) throws {
        var command = [try Tool.require("unshare"), "--pid", "--fork", "--kill-child"]
        if asNobody {
            command += [try Tool.require("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        process = try ChildProcess(command + arguments, environment: environment)
    }

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

/// A directory nobody (uid 65534) owns, mode 0700: an `XDG_RUNTIME_DIR` for sway.
func runtimeDirectoryForNobody(in dir: ScratchDirectory) throws -> String {
    let path = dir.file("run")
    guard mkdir(path, 0o700) == 0, chown(path, 65534, 65534) == 0 else {
        throw DatagramSocket.Failure(call: "mkdir/chown \(path)", errno: errno)
    }
    // sway (as nobody) reads its configuration from the scratch directory.
    guard chmod(dir.path, 0o755) == 0 else { throw DatagramSocket.Failure(call: "chmod \(dir.path)", errno: errno) }
    return path
}

/// Waits (event: inotify on `directory`) until a file for which `matches` holds exists in it,
/// and returns its name.
func waitForFile(
    in directory: String, timeout: Duration = .seconds(30), _ what: String,
    _ matches: @escaping @Sendable (String) -> Bool
) async throws -> String {
    let found = Observed<String?>(nil)
    let check: @Sendable () -> Void = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if let name = names.sorted().first(where: matches) { found.update { $0 = name } }
    }
    let watch = try DirectoryWatch(directory: directory, onChange: check)
    defer { watch.close() }
    check()  // it may be there already
    return try await found.wait(timeout: timeout, what) { $0 != nil }!
}
