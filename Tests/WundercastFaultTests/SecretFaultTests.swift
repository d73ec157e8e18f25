import Foundation
import Testing
import WundercastTestSupport

/// Secrets: an OpenWeatherMap that echoes the API key in its answers. No 8-character piece of
/// the key may reach any output: `now`, `status`, `wundercastctl`, the log, `STATUS=`, the kept
/// state file.
@Suite(.enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason), .serialized)
struct SecretFaultTests {
    static let key = "5f1c2a9be7d04a3c8e6b1f0d92a4c7e3"
    static let truth = Truth(maxAge: 3600, precision: 2, secret: key)

    /// A daemon on `Provider=openweathermap` with `key` in its key file, keeping its state in a file.
    static func start(_ http: FixtureHTTPServer, directory: String) async throws -> DaemonProcess {
        let keyFile = directory + "/owm.key"
        _ = FileManager.default.createFile(
            atPath: keyFile, contents: Data((key + "\n").utf8), attributes: [.posixPermissions: 0o600])
        return try await DaemonProcess(
            configuration: FaultConfiguration.fallback(http, truth: truth, cache: directory + "/state.json")
                .replacingOccurrences(
                    of: "[Weather]\n", with: "[Weather]\nProvider=openweathermap\nAPIKeyFile=\(keyFile)\n"))
    }

    /// Every output of the daemon, and the kept state file, checked for the key.
    static func checkEverywhere(_ daemon: DaemonProcess, _ scenario: FaultScenario, directory: String) async {
        if let kept = FileManager.default.contents(atPath: directory + "/state.json") {
            scenario.checkSafe(String(decoding: kept, as: UTF8.self), "the kept state file", truth)
        }
        for arguments in [["now"], ["status"], ["--format", "json", "status"], ["weather", "10,10"]] {
            if let result = try? await runProcess(
                try Binaries.path("wundercastctl"), ["--socket", daemon.socketPath] + arguments)
            {
                scenario.checkSafe(
                    result.stdout + result.stderr, "wundercastctl \(arguments.joined(separator: " "))", truth)
            }
        }
        await scenario.end(daemon, truth)
    }

    @Test func aShortErrorEchoingTheKeyLeavesNoPieceOfIt() async throws {
        let scenario = FaultScenario("secrets", "a 401 whose message quotes the API key")
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let http = try await FixtureHTTPServer()
        try http.respond(
            status: 401,
            body:
                #"{"cod":401,"message":"Invalid API key \#(Self.key). Please see https://openweathermap.org/faq#error401"}"#
        )
        let daemon = try await Self.start(http, directory: directory)
        _ = try await http.waitForRequests(count: 1, timeout: .seconds(30))
        await scenario.recovered(daemon, "the provider's error") { $0["error"] != nil }
        scenario.injected(try http.requests().count)
        await Self.checkEverywhere(daemon, scenario, directory: directory)
        await http.stopAndWait()
    }
}
