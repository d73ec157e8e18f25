import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a scenario knows of the daemon's world, to judge each state it publishes by.
struct Truth: Sendable {
    /// The fake gpsd, whose ``FakeGPSD/fixes`` are every position gpsd reported (nil: no gpsd).
    var gpsd: FakeGPSD?
    /// `[Location] MaxFixAge=` and `[Throttle] MaxAge=` of the configuration, in seconds.
    var maxFixAge: Double = 5
    var maxAge: Double = 3600
    /// `[Weather] Precision=`.
    var precision: Int = 2
    /// The API key a provider may echo: no 8-character piece of it may reach any output.
    var secret: String?
}

extension FaultScenario {
    /// The liveness deadline of one `now` (a generous safety net, not a speed target).
    static let liveness: Duration = .seconds(5)

    /// Asks `now --json` (the liveness probe): counts a crash when the daemon is gone, a hang when
    /// no answer came within ``liveness``; checks the answer's truth and safety. Returns it.
    @discardableResult
    func now(
        _ daemon: DaemonProcess, _ truth: Truth, sourceLocation: SourceLocation = #_sourceLocation
    ) async
        -> [String: Any]?
    {
        let askedAt = Date().timeIntervalSince1970
        let result: ProcessResult
        do {
            result = try await runProcess(
                try Binaries.path("wundercastctl"), ["--socket", daemon.socketPath, "now", "--json"],
                timeout: Self.liveness)
        } catch {
            hang("cannot run wundercastctl now: \(error)", sourceLocation: sourceLocation)
            return nil
        }
        guard daemon.isRunning else {
            crash("wundercastd is gone; log:\n\(daemon.log.suffix(2000))", sourceLocation: sourceLocation)
            return nil
        }
        // Refused at `MaxClients=` (a burst still holding the slots; closes are noticed
        // asynchronously): an answer at once, as the daemon promises, not a hang.
        if result.status != 0 && result.stderr.contains("(too-many-clients)") { return nil }
        guard result.status == 0,
            let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        else {
            hang(
                "now got no answer within \(Self.liveness) (exit \(result.status)): \(result.stderr.prefix(300))",
                sourceLocation: sourceLocation)
            return nil
        }
        checkSafe(result.stdout, "now --json", truth, sourceLocation: sourceLocation)
        checkTruth(object, askedAt: askedAt, truth, sourceLocation: sourceLocation)
        return object
    }

    /// `count` liveness probes in a row (each checked).
    func nows(_ daemon: DaemonProcess, _ truth: Truth, _ count: Int) async {
        for _ in 0..<count { await now(daemon, truth) }
    }

    /// Judges a `WEATHER` object asked for at `askedAt` (seconds since 1970): it never claims
    /// more than the daemon can know.
    func checkTruth(
        _ state: [String: Any], askedAt: Double, _ truth: Truth, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let status = state["status"] as? String ?? ""
        let known = ["fresh", "stale", "offline", "error", "fetching", "noLocation"]
        if !known.contains(status) { untruthful("unknown status '\(status)'", sourceLocation: sourceLocation) }
        let location = state["location"] as? [String: Any]
        let source = location?["source"] as? String
        if source == "gpsd", let location {
            let fixes = truth.gpsd?.fixes ?? []
            let latitude = location["latitude"] as? Double ?? .nan
            let longitude = location["longitude"] as? Double ?? .nan
            let half = 0.5 * pow(10, -Double(truth.precision)) + 1e-9
            let reported = fixes.contains {
                abs($0.latitude - latitude) <= half && abs($0.longitude - longitude) <= half
            }
            if !reported {
                untruthful(
                    "position \(latitude),\(longitude) that gpsd did not report (it reported \(Set(fixes.map { "\($0.latitude),\($0.longitude)" })))",
                    sourceLocation: sourceLocation)
            }
            if let last = fixes.last, let age = location["ageSeconds"] as? Double {
                let trueAge = askedAt - last.sentAt
                if age < trueAge - 2 {
                    untruthful(
                        "fix age \(age) s younger than the last fix (\(Int(trueAge)) s ago)",
                        sourceLocation: sourceLocation)
                }
            }
            if status == "fresh" {
                if location["status"] as? String != "current" {
                    untruthful("fresh with a \(location["status"] ?? "no") position", sourceLocation: sourceLocation)
                }
                if let last = fixes.last, askedAt - last.sentAt > truth.maxFixAge + 3 {
                    untruthful(
                        "fresh though the last fix was \(Int(askedAt - last.sentAt)) s ago (MaxFixAge \(truth.maxFixAge) s)",
                        sourceLocation: sourceLocation)
                }
            }
        }
        if status == "fresh" {
            if state["weather"] == nil || state["fetchedAt"] == nil {
                untruthful("fresh without weather", sourceLocation: sourceLocation)
            }
            if let age = state["ageSeconds"] as? Double, age > truth.maxAge + 5 {
                untruthful(
                    "fresh with weather \(Int(age)) s old (MaxAge \(truth.maxAge) s)", sourceLocation: sourceLocation)
            }
            if let error = state["error"] { untruthful("fresh with an error \(error)", sourceLocation: sourceLocation) }
        }
        if let weather = state["weather"] as? [String: Any] {
            checkPlausible(weather, sourceLocation: sourceLocation)
        }
    }

    /// Values no weather on Earth has (metric units: the fault suite's configurations are metric).
    private func checkPlausible(_ weather: [String: Any], sourceLocation: SourceLocation) {
        let ranges: [(String, ClosedRange<Double>)] = [
            ("temperature", -95...65), ("apparentTemperature", -110...85), ("relativeHumidity", 0...100),
            ("windSpeed", 0...500), ("windDirection", 0...360), ("weatherCode", 0...99),
        ]
        for (key, range) in ranges {
            if let value = weather[key] as? Double, !range.contains(value) {
                untruthful("impossible weather.\(key) \(value)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Counts unsafe output in `text` (from `what`): a control character other than newline and
    /// tab, in the text or in any JSON string in it, or an 8-character piece of the secret.
    func checkSafe(_ text: String, _ what: String, _ truth: Truth, sourceLocation: SourceLocation = #_sourceLocation) {
        var texts = [text]
        for line in text.split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) {
                texts += Self.strings(in: object)
            }
        }
        for piece in texts {
            if let scalar = piece.unicodeScalars.first(where: Self.isControl) {
                unsafe(
                    "control character U+\(String(scalar.value, radix: 16)) in \(what): \(piece.debugDescription.prefix(200))",
                    sourceLocation: sourceLocation)
                break
            }
        }
        // The key as sent, in any case, and percent-encoded (the JSON strings above are decoded).
        let forms = texts + [text.removingPercentEncoding].compactMap { $0 }
        if let secret = truth.secret, let piece = forms.lazy.compactMap({ Self.secretPiece(of: secret, in: $0) }).first
        {
            unsafe("'\(piece)', a piece of the API key, in \(what)", sourceLocation: sourceLocation)
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
    }

    /// The first 8-character piece of `secret` found in `text` (any ASCII case), if any.
    static func secretPiece(of secret: String, in text: String) -> String? {
        let key = Array(secret.lowercased())
        let haystack = text.lowercased()
        guard key.count >= 8 else { return haystack.contains(String(key)) ? secret : nil }
        for start in 0...(key.count - 8) {
            let piece = String(key[start..<start + 8])
            if haystack.contains(piece) { return piece }
        }
        return nil
    }

    static func strings(in object: Any) -> [String] {
        switch object {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings(in:))
        case let dictionary as [String: Any]: dictionary.keys.map { $0 } + dictionary.values.flatMap(strings(in:))
        default: []
        }
    }

    /// Waits (at most `timeout`) for a state for which `condition` holds — the daemon recovered
    /// after the fault ended; counts lost state otherwise. Returns the state.
    @discardableResult
    func recovered(
        _ daemon: DaemonProcess, _ what: String, timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping @Sendable ([String: Any]) -> Bool
    ) async -> [String: Any]? {
        do {
            return try await daemon.waitForState(timeout: timeout, what, condition)
        } catch {
            if !daemon.isRunning {
                crash("wundercastd is gone: \(String(describing: error).prefix(2000))", sourceLocation: sourceLocation)
            } else {
                untruthful("no recovery: \(String(describing: error).prefix(3000))", sourceLocation: sourceLocation)
            }
            return nil
        }
    }

    /// The end of a scenario: the daemon still runs, answers `now` (checked), its text `now`,
    /// `status` and everything it logged are safe, and the scenario's line is written.
    func end(_ daemon: DaemonProcess, _ truth: Truth, sourceLocation: SourceLocation = #_sourceLocation) async {
        await now(daemon, truth, sourceLocation: sourceLocation)
        for request in ["now", "status"] {
            if let result = try? await daemon.ctl(request) {
                checkSafe(
                    result.stdout + result.stderr, "wundercastctl \(request)", truth, sourceLocation: sourceLocation)
            }
        }
        if let status = try? await daemon.ctl("--format", "json", "status") {
            checkSafe(status.stdout, "status --json", truth, sourceLocation: sourceLocation)
        }
        checkSafe(daemon.log, "the daemon's log", truth, sourceLocation: sourceLocation)
        if let notify = daemon.notify {
            checkSafe(notify.messages.rawText, "sd_notify messages (STATUS=)", truth, sourceLocation: sourceLocation)
        }
        if !daemon.isRunning { crash("wundercastd exited during the scenario", sourceLocation: sourceLocation) }
        finish()
    }
}

/// The fault suite's configurations: short ages so that faults show within seconds, no city
/// table (faster starts), no cache unless a scenario asks for one.
enum FaultConfiguration {
    /// A daemon following `gpsd` and fetching from `http`.
    static func gpsd(
        _ gpsd: FakeGPSD, _ http: FixtureHTTPServer, authorization: String = "always", truth: Truth = Truth(),
        cache: String? = nil, extra: String = ""
    ) -> String {
        """
        [Location]
        Authorization=\(authorization)
        GPSD=127.0.0.1:\(gpsd.port)
        MaxHorizontalError=10km
        MaxFixAge=\(Int(truth.maxFixAge))s
        \(common(http, truth: truth, cache: cache, extra: extra))
        """
    }

    /// A daemon at a fallback place (GPS denied) fetching from `http`.
    static func fallback(
        _ http: FixtureHTTPServer, truth: Truth = Truth(), cache: String? = nil, extra: String = ""
    ) -> String {
        """
        [Location]
        Authorization=denied
        Fallback=44.4375,26.125
        \(common(http, truth: truth, cache: cache, extra: extra))
        """
    }

    /// The sections after `[Location]`.
    private static func common(_ http: FixtureHTTPServer, truth: Truth, cache: String?, extra: String) -> String {
        """
        [Throttle]
        MinInterval=1s
        MinDistance=1km
        MaxAge=\(Int(truth.maxAge))s
        [Weather]
        URL=\(http.baseURL)
        Precision=\(truth.precision)
        Timeout=3s
        [Places]
        Cities=
        OnlineGeocoding=no
        [Cache]
        \(cacheLines(cache))
        \(extra)
        """
    }
}

extension FaultConfiguration {
    /// `[Cache]` keys: kept at `path` (the clock trusted: `ClockSyncFile=` empty), or nothing kept.
    static func cacheLines(_ path: String?) -> String {
        path.map { "Enabled=yes\nPath=\($0)\nClockSyncFile=" } ?? "Enabled=no"
    }
}

/// A fake gpsd playing `script`, a fixture HTTP server, the truth to judge by (MaxFixAge 5 s,
/// MaxAge 1 h, Precision=2) and a daemon following them (started; nothing awaited yet).
struct GPSDWorld {
    let gpsd: FakeGPSD
    let http: FixtureHTTPServer
    let truth: Truth
    let daemon: DaemonProcess

    init(_ script: [GPSDStep], authorization: String = "always", extra: String = "") async throws {
        gpsd = try FakeGPSD(script: script)
        http = try await FixtureHTTPServer()
        truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, authorization: authorization, truth: truth, extra: extra)
        )
    }
}

/// The states scenarios wait for.
enum States {
    static let fresh: @Sendable ([String: Any]) -> Bool = { $0["status"] as? String == "fresh" }
    static func freshFromGPSD(_ state: [String: Any]) -> Bool {
        state["status"] as? String == "fresh" && state[path: "location.source"] as? String == "gpsd"
    }
}

/// A `socat` client of `daemon`'s socket, run as `user` (`nobody` by default: a public reader)
/// through `setpriv`, or as this process's user when `user` is nil: sends `bytes`, half-closes,
/// and returns the answer lines (bounded: `timeout`).
func ask(
    _ daemon: DaemonProcess, _ bytes: [UInt8], as user: (uid: UInt32, gid: UInt32)? = (65534, 65534),
    timeout: Duration = .seconds(20)
) async throws -> (status: Int32, lines: [String]) {
    let identity = user.map { ["/usr/bin/setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)", "--clear-groups"] } ?? []
    let socat = try ChildProcess(
        identity + ["/usr/bin/socat", "-t", "10", "-", "UNIX-CONNECT:\(daemon.socketPath)"], stdinPipe: true,
        separateStderr: true)
    socat.writeToStdin(bytes)
    socat.closeStdin()
    let status: Int32
    do {
        status = try await socat.exited(timeout: timeout)
    } catch {
        socat.signalGroup(SIGKILL)
        throw error
    }
    try await socat.output.waitForEnd("socat's output", timeout: .seconds(5))
    return (status, socat.output.lines)
}

extension DaemonProcess {
    /// Lets other users reach the socket (the test's temporary directory is 0700).
    func openToOtherUsers() { _ = chmod(directory.path, 0o755) }
}
