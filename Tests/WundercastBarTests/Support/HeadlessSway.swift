import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

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

    /// Starts sway with `configuration` after the `output HEADLESS-1 resolution 1280x200` line
    /// (`height` other than 200: room for a tooltip), and returns once its Wayland socket
    /// exists. `environment` is added to the display's.
    static func start(
        in directory: ScratchDirectory, configuration: String = "", environment: [String: String] = [:],
        height: Int = 200
    ) async throws -> HeadlessSway {
        let runtime = try runtimeDirectoryForNobody(in: directory)
        let config = try directory.write(
            "sway.conf", "output HEADLESS-1 resolution 1280x\(height)\n" + configuration + "\n")
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

    /// A sway whose swaybar runs a snippet (a copy of `snippet` — `etc/sway-bar.conf`, whose
    /// `bar { }` block is included as it is, or `etc/i3blocks.conf`, run by i3blocks as the
    /// status command of a bar of the test's own), with `WUNDERCAST_SOCKET` set to `socket`. A
    /// second `bar-0` block only sets a large font and dark text on white for OCR. sway and
    /// swaybar run as nobody: the snippet and `wundercastctl` are copied into the scratch
    /// directory for it, and a daemon's socket there is opened to it (its directory for search,
    /// the socket for writing).
    static func swaybar(in dir: ScratchDirectory, snippet: String, socket: String) async throws -> HeadlessSway {
        let bin = dir.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: try Binaries.path("wundercastctl"), toPath: bin + "/wundercastctl")
        guard chmod(bin, 0o755) == 0 else { throw DatagramSocket.Failure(call: "chmod \(bin)", errno: errno) }
        if FileManager.default.fileExists(atPath: socket) {
            let directory = (socket as NSString).deletingLastPathComponent
            guard chmod(directory, 0o711) == 0, chmod(socket, 0o666) == 0 else {
                throw DatagramSocket.Failure(call: "chmod for nobody", errno: errno)
            }
        }
        let copy = dir.file((snippet as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: Repository.url(snippet).path, toPath: copy)
        let block =
            snippet.hasSuffix("i3blocks.conf")
            ? "bar bar-0 {\n    position top\n    status_command i3blocks -c \(copy)\n}" : "include \(copy)"
        return try await HeadlessSway.start(
            in: dir,
            configuration: """
                \(block)
                bar bar-0 {
                    font pango:DejaVu Sans 30
                    colors {
                        background #ffffff
                        statusline #000000
                    }
                }
                """,
            environment: ["PATH": "\(bin):/usr/bin:/bin", "WUNDERCAST_SOCKET": socket])
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

    /// The bar (the top 80 px) now as a PPM file (``PixelImage``), or `nil` when grim failed
    /// (take another).
    func capture() async throws -> String? {
        let image = directory.file("bar.ppm")
        let shot = try await runProcess(
            try Tool.require("grim"), ["-t", "ppm", "-g", "0,0 1280x80", image],
            environment: wayland.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
        return shot.status == 0 ? image : nil
    }

    func stop() { sway.stop() }
}

/// waybar in a ``HeadlessSway``, as this user (it runs our binaries wherever the checkout is).
enum Waybar {
    /// Starts waybar with `config` (default: the snippet `etc/waybar/config.jsonc` as it is)
    /// and our `style.css` as pasted, then large dark text on a white bar for OCR (PITFALLS),
    /// then `style` (CSS of the test's own); returns once the bar is configured.
    /// `killableAlone`: see ``Contained``.
    static func start(
        in sway: HeadlessSway, socket: String, config: String = Repository.url("etc/waybar/config.jsonc").path,
        style extra: String = "", killableAlone: Bool = false
    ) async throws -> Contained {
        let style = try sway.directory.write(
            "style.css",
            """
            @import url("file://\(Repository.url(Snippet.waybarStyle).path)");
            * { font-family: "DejaVu Sans"; font-size: 40px; }
            window#waybar { background: #ffffff; }
            #custom-wundercast { color: #000000; }
            \(extra)
            """)
        let waybar = try Contained(
            [try Tool.require("waybar"), "-c", config, "-s", style],
            environment: BarDaemon.environment(
                socket: socket, sway.wayland.merging(["HOME": sway.directory.path]) { a, _ in a }),
            killableAlone: killableAlone)
        try await waybar.output.waitFor(containing: "Bar configured", timeout: .seconds(30))
        return waybar
    }
}
