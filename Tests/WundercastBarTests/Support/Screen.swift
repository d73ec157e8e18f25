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

/// A headless sway (PITFALLS "Testing in the real status bars") running as nobody, with a
/// private `XDG_RUNTIME_DIR`, whose screen is read with grim and tesseract.
struct HeadlessSway {
    let sway: Contained
    let runtime: String
    /// The name of its Wayland socket in ``runtime`` (`wayland-1`).
    let socket: String
    let directory: ScratchDirectory

    /// Starts sway with `configuration` after the `output HEADLESS-1 resolution 1280x200` line,
    /// and returns once its Wayland socket exists. `environment` is added to the display's.
    static func start(
        in directory: ScratchDirectory, configuration: String = "", environment: [String: String] = [:]
    ) async throws -> HeadlessSway {
        let runtime = try runtimeDirectoryForNobody(in: directory)
        let config = try directory.write(
            "sway.conf", "output HEADLESS-1 resolution 1280x200\n" + configuration + "\n")
        var env: [String: String] = [
            "PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": runtime,
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
        ]
        for (k, v) in environment { env[k] = v }
        let sway = try Contained([try Tool.require("sway"), "-c", config], environment: env, asNobody: true)
        let socket = try await waitForFile(in: runtime, "sway's Wayland socket") {
            $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
        }
        return HeadlessSway(sway: sway, runtime: runtime, socket: socket, directory: directory)
    }

    /// What a Wayland client of this sway needs in its environment.
    var wayland: [String: String] { ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket] }

    /// The text OCR reads in the bar (the top 80 px), retried until `accept` holds or 30 s
    /// pass (see ``OCR/readUntil(timeout:capture:_:)``); the last text read.
    func barText(_ accept: @escaping @Sendable (String) -> Bool) async throws -> String {
        let grim = try Tool.require("grim")
        let image = directory.file("bar.png")
        let environment = wayland.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
        return try await OCR.readUntil(
            capture: {
                let shot = try await runProcess(grim, ["-g", "0,0 1280x80", image], environment: environment)
                return shot.status == 0 ? image : nil
            }, accept)
    }

    func stop() { sway.stop() }
}
