import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A test daemon for the bars: GPS denied, a fallback place (Oslo), and the recorded Open-Meteo
/// answer (Bucharest, a clear night at -5.3 °C, humidity 72 %) from a loopback server.
/// No gpsd and no network.
struct BarDaemon {
    let http: FixtureHTTPServer
    let daemon: DaemonProcess

    /// The recorded answer's temperature as the bar formats round it, and its condition.
    static let temperature = "-5"
    static let condition = "Clear"

    /// Starts both and returns once the daemon's state is `fresh` (weather fetched).
    /// `weatherCode` replaces the recorded WMO code (e.g. 95, a thunderstorm); `answer` serves
    /// another recorded Open-Meteo answer (a fixture path) instead, `body` an answer's text.
    static func start(weatherCode: Int? = nil, answer: String? = nil, body: String? = nil) async throws -> BarDaemon {
        let http = try await FixtureHTTPServer()
        if let body {
            try http.respond(body: body)
        } else if let answer {
            try http.respond(file: answer)
        } else if let weatherCode {
            let recorded = try String(
                contentsOf: Fixtures.url("weather/open-meteo/current_bucharest_metric.json"), encoding: .utf8)
            let current = #""weather_code":0,"wind_speed_10m":4.7"#
            precondition(recorded.contains(current), "the recorded answer changed")
            try http.respond(
                body: recorded.replacingOccurrences(
                    of: current, with: #""weather_code":\#(weatherCode),"wind_speed_10m":4.7"#))
        }
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                GPSD=127.0.0.1:1
                Fallback=59.9139,10.7522
                [Weather]
                URL=\(http.baseURL)
                """)
        _ = try await daemon.waitForState(timeout: .seconds(60), "fresh weather for the fallback place") {
            $0["status"] as? String == "fresh"
        }
        return BarDaemon(http: http, daemon: daemon)
    }

    var socketPath: String { daemon.socketPath }

    /// The environment a bar would give its command, with our binaries first on `PATH` and
    /// `WUNDERCAST_SOCKET` pointing at this daemon.
    var environment: [String: String] { Self.environment(socket: socketPath) }

    static func environment(socket: String, _ extra: [String: String] = [:]) -> [String: String] {
        var env = Spawn.environment
        env["PATH"] = Binaries.directory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["WUNDERCAST_SOCKET"] = socket
        for (k, v) in extra { env[k] = v }
        return env
    }
}

/// Programs from Debian the bar tests use; a test whose program is missing is skipped.
enum Tool {
    /// The absolute path of `name` on `PATH` (plus the sbin directories), or `nil`.
    static func path(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func exists(_ names: String...) -> Bool { names.allSatisfy { path($0) != nil } }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static func require(_ name: String) throws -> String {
        guard let found = path(name) else { throw Missing(description: "\(name) is not installed") }
        return found
    }

    static var isRoot: Bool { getuid() == 0 }
}

/// A fresh directory under /tmp, removed by ``remove()``.
struct ScratchDirectory {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = URL(fileURLWithPath: try DatagramSocket.temporaryDirectory())
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `command` as its bar does (`/bin/sh -c`), with `environment`, until it exits.
func runSnippet(
    _ command: String, environment: [String: String], timeout: Duration = .seconds(30)
)
    async throws -> ProcessResult
{
    try await runProcess("/bin/sh", ["-c", command], environment: environment, timeout: timeout)
}

/// Starts `command` as its bar does (`/bin/sh -c`, own process group) for a streaming
/// command (`watch`); stop it with `signalGroup(SIGKILL)`.
func startSnippet(_ command: String, environment: [String: String]) throws -> ChildProcess {
    try ChildProcess(["/bin/sh", "-c", command], environment: environment, separateStderr: true)
}

/// The lines of `text` parsed as JSON objects (lines that are not objects are left out).
func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}
