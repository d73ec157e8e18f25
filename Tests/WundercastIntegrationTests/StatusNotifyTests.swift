import Foundation
import Testing
import WundercastTestSupport

/// `STATUS=` (what `systemctl status` shows every local user) follows the published weather,
/// with the position at `[Journal] Precision=` like the journal, never the precise one.
@Suite struct StatusNotifyTests {
    @Test(arguments: [(nil as Int?, "59.9"), (0, "60")])
    func statusFollowsTheWeatherWithACoarsePosition(precision: Int?, latitude: String) async throws {
        let http = try await FixtureHTTPServer()
        // No city table: the place is shown as coordinates.
        let configuration = """
            [Location]
            Authorization=denied
            GPSD=127.0.0.1:1
            Fallback=59.9139,10.7522
            [Weather]
            URL=\(http.baseURL)
            Precision=2
            [Places]
            Cities=
            OnlineGeocoding=no
            """ + (precision.map { "\n[Journal]\nPrecision=\($0)\n" } ?? "\n")
        let daemon = try await DaemonProcess(configuration: configuration)
        let notify = try #require(daemon.notify)
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh fallback weather") {
            $0["status"] as? String == "fresh"
        }
        let weather = try? await notify.messages.waitFor("a STATUS= with the weather", timeout: .seconds(10)) {
            $0.hasPrefix("STATUS=-5°C")
        }
        // One datagram may hold several assignments (READY=1, STATUS=…).
        let lines = notify.messages.lines.flatMap { $0.split(separator: "\n").map(String.init) }
            .filter { $0.hasPrefix("STATUS=") }
        #expect(weather != nil, "\(lines)")
        // More than one: it changed from serving/fetching to the weather.
        #expect(Set(lines).count >= 2, "\(lines)")
        let last = try #require(lines.last { $0.hasPrefix("STATUS=-5°C") })
        #expect(last.contains(", \(latitude),"), "\(last)")
        // Read later by `systemctl status`: the clock time of the weather, not an age that goes stale.
        #expect(last.range(of: #"weather of \d\d:\d\d UTC"#, options: .regularExpression) != nil, "\(last)")
        #expect(!last.contains("ago") && !last.contains("just now"), "\(last)")
        for line in lines {
            #expect(!line.contains("59.91") && !line.contains("10.75"), "\(line)")
        }
        #expect(await daemon.stop() == 0)
        // SIGTERM: STOPPING=1 before the exit. The datagrams are read by a thread of the test's
        // own, which may not have read the last one when the exit is seen (CI, under load).
        _ = try await notify.messages.waitFor("STOPPING=1", timeout: .seconds(10)) { $0.contains("STOPPING=1") }
    }
}
