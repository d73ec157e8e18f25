import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Socket side: 2,000-connection bursts, watchers that never read, half-closed connections,
/// over-long requests and garbage bytes, from root and from `nobody` (a public reader). `now`
/// answers throughout and after, every answer is safe to print, and a public reader never gets a
/// precise position or a decision.
@Suite(.enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason), .serialized)
struct SocketFaultTests {
    static let home = (latitude: 48.1372, longitude: 11.5756)

    /// A daemon following a healthy fake gpsd, fresh.
    static func start(
        _ scenario: FaultScenario, extra: String = "", moving: Bool = false
    ) async throws -> (
        DaemonProcess, Truth, FakeGPSD, FixtureHTTPServer
    ) {
        let script: [GPSDStep] =
            moving
            ? [
                .repeating(
                    [
                        .fix(latitude: home.latitude, longitude: home.longitude), .pause(0.1),
                        .fix(latitude: home.latitude + 0.03, longitude: home.longitude), .pause(0.1),
                    ], times: nil)
            ]
            : GPSDStep.healthy(latitude: home.latitude, longitude: home.longitude, interval: 0.5)
        let world = try await GPSDWorld(script, extra: extra)
        world.daemon.openToOtherUsers()
        await scenario.recovered(world.daemon, "fresh weather at the fix", States.freshFromGPSD)
        return (world.daemon, world.truth, world.gpsd, world.http)
    }

    /// `nobody` asks `now`, `authorize denied` and `refresh`: a public position (PublicPrecision=1),
    /// two refusals; and `now` from root still follows the GPS (the decision did not change).
    static func checkPublicReader(_ daemon: DaemonProcess, _ scenario: FaultScenario, _ truth: Truth) async throws {
        let answer = try await ask(daemon, Array("now\nauthorize denied\nrefresh\n".utf8))
        scenario.checkSafe(answer.lines.joined(separator: "\n"), "answers to nobody", truth)
        guard answer.lines.count == 3 else {
            scenario.hang("nobody got \(answer.lines.count) answers to 3 requests: \(answer.lines)")
            return
        }
        let objects = answer.lines.map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        for key in ["location.latitude", "location.longitude"] {
            if let value = objects[0][path: key] as? Double, abs(value * 10 - (value * 10).rounded()) > 1e-6 {
                scenario.privilege("nobody's \(key) \(value) is finer than PublicPrecision=1")
            }
        }
        for (index, request) in [(1, "authorize denied"), (2, "refresh")]
        where objects[index]["code"] as? String != "not-permitted" {
            scenario.privilege("nobody's '\(request)' was not refused: \(answer.lines[index])")
        }
        if let state = await scenario.now(daemon, truth), state["authorization"] as? String != "authorizedAlways" {
            scenario.privilege("nobody changed the authorization: \(state["authorization"] ?? "none")")
        }
    }

    /// Connects `count` non-blocking clients at once; each sends `request` (if any) and, with
    /// `halfClose`, shuts its sending side. Returns the descriptors (-1: refused by a full
    /// backlog, itself a fault the daemon must survive).
    static func burst(_ path: String, count: Int, request: String?, halfClose: Bool) -> [Int32] {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
        }
        return (0..<count).map { _ in
            let fd = socket(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return -1 }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
            guard connected else {
                close(fd)
                return -1
            }
            if let request {
                _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            if halfClose { shutdown(fd, Int32(SHUT_WR)) }
            return fd
        }
    }

    /// Reads what each of `fds` got until EOF, all within `seconds` (on a thread of its own);
    /// closes them. Returns the texts.
    static func drain(_ fds: [Int32], seconds: Int) async throws -> [String] {
        try await onDedicatedThread("burst reader") {
            let end = Date().addingTimeInterval(Double(seconds))
            var texts: [String] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            for fd in fds where fd >= 0 {
                var text: [UInt8] = []
                while true {
                    let left = Int32(max(0, end.timeIntervalSinceNow * 1000))
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, left) > 0 else { break }
                    let n = read(fd, &buffer, buffer.count)
                    if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    guard n > 0 else { break }
                    text += buffer[0..<n]
                }
                close(fd)
                texts.append(String(decoding: text, as: UTF8.self))
            }
            return texts
        }
    }

    @Test func aBurstOf2000ConnectionsIsSurvived() async throws {
        let scenario = FaultScenario("socket", "a burst of 2,000 connections (requests, half-closed, idle)")
        let (daemon, truth, gpsd, http) = try await Self.start(scenario)
        defer { withExtendedLifetime((gpsd, http)) {} }
        let rounds = FaultCampaign.count(ci: 1, full: 3)
        for _ in 0..<rounds {
            var fds = Self.burst(daemon.socketPath, count: 1000, request: "now\n", halfClose: true)
            fds += Self.burst(daemon.socketPath, count: 500, request: "now\n", halfClose: false)
            fds += Self.burst(daemon.socketPath, count: 500, request: nil, halfClose: false)
            scenario.injected(2000)
            let answers = try await Self.drain(Array(fds.prefix(1000)), seconds: 30)
            for (index, text) in answers.enumerated() where index % 50 == 0 {
                scenario.checkSafe(text, "an answer in the burst", truth)
            }
            let answered = answers.count { $0.contains("\"class\":\"WEATHER\"") || $0.contains("\"class\":\"ERROR\"") }
            if answered < answers.count / 2 {
                scenario.hang("only \(answered) of \(answers.count) half-closed requests in the burst were answered")
            }
            for fd in fds.dropFirst(1000) where fd >= 0 { close(fd) }
            await scenario.nows(daemon, truth, 3)
        }
        try await Self.checkPublicReader(daemon, scenario, truth)
        await scenario.end(daemon, truth)
    }

    @Test func watchersThatNeverReadCostNothing() async throws {
        let scenario = FaultScenario(
            "socket", "100 watchers that never read, while the state changes 10 times a second")
        let (daemon, truth, gpsd, http) = try await Self.start(scenario, moving: true)
        defer { withExtendedLifetime((gpsd, http)) {} }
        let watchers = Self.burst(
            daemon.socketPath, count: FaultCampaign.count(ci: 100, full: 250), request: "watch\n", halfClose: false)
        scenario.injected(watchers.count)
        // The state keeps changing (a fix every 0.1 s, weather every MinInterval) while nobody reads.
        await scenario.recovered(daemon, "weather fetched for the second position") {
            ($0[path: "location.latitude"] as? Double).map { abs($0 - 48.17) < 0.006 } == true
        }
        await scenario.nows(daemon, truth, 5)
        let rss = Self.residentKiB(daemon.pid)
        if rss > 300 * 1024 { scenario.untruthful("resident memory \(rss) KiB with stuck watchers") }
        for fd in watchers where fd >= 0 { close(fd) }
        await scenario.nows(daemon, truth, 2)
        try await Self.checkPublicReader(daemon, scenario, truth)
        await scenario.end(daemon, truth)
    }

    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Hostile bytes on one connection: what each must be answered with.
    struct Hostile: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        /// A piece the first answer line must hold (e.g. an error code), if any.
        var expected: String?
        /// The answer may be lost: the daemon closes a connection whose request is too long
        /// while the client is still sending, and unread data at close resets the connection
        /// (Linux AF_UNIX), taking the error line with it. Then no answer is also right.
        var mayBeCut = false
        var testDescription: String { name }
    }

    static let hostile: [Hostile] = {
        var random = SplitMix(seed: 14)
        let garbage = (0..<65536).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return [
            Hostile(name: "garbage bytes (64 KiB, NUL, ESC, invalid UTF-8)", bytes: garbage, expected: nil),
            Hostile(
                name: "an over-long request (100 kB on one line)",
                bytes: Array(repeating: UInt8(ascii: "a"), count: 100_000) + [10], expected: "too-long", mayBeCut: true),
            Hostile(name: "half-closed after 'now' without a newline", bytes: Array("now".utf8), expected: "WEATHER"),
            Hostile(
                name: "1 MB without a newline", bytes: Array(repeating: UInt8(ascii: "w"), count: 1_000_000),
                expected: "too-long", mayBeCut: true),
            Hostile(
                name: "escape codes inside a request",
                bytes: Array("weather \u{1B}[2J\u{07}Oslo\nnow\u{1B}]0;x\u{07}\n".utf8), expected: nil),
            Hostile(
                name: "a thousand requests in one write",
                bytes: Array(String(repeating: "now\nversion\n", count: 500).utf8), expected: nil),
        ]
    }()

    @Test(arguments: FaultCampaign.pick(hostile, ci: 3))
    func hostileBytesGetSafeAnswers(_ hostile: Hostile) async throws {
        let scenario = FaultScenario("socket", "hostile client: \(hostile.name)")
        let (daemon, truth, gpsd, http) = try await Self.start(scenario)
        defer { withExtendedLifetime((gpsd, http)) {} }
        for user in [nil, (uid: UInt32(65534), gid: UInt32(65534))] as [(uid: UInt32, gid: UInt32)?] {
            scenario.injected()
            do {
                let answer = try await ask(daemon, hostile.bytes, as: user)
                scenario.checkSafe(answer.lines.joined(separator: "\n"), "answers to \(hostile.name)", truth)
                if let expected = hostile.expected, !(answer.lines.isEmpty && hostile.mayBeCut),
                    !(answer.lines.first ?? "").contains(expected)
                {
                    scenario.untruthful(
                        "the answer to \(hostile.name) is not \(expected): \(answer.lines.first?.prefix(200) ?? "none")"
                    )
                }
            } catch {
                scenario.hang("no end to the answers to \(hostile.name): \(error)")
            }
            await scenario.now(daemon, truth)
        }
        try await Self.checkPublicReader(daemon, scenario, truth)
        await scenario.end(daemon, truth)
    }
}
