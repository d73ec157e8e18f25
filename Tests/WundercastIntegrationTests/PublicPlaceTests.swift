import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// Issue 18, item 7, with the real daemon and city table: the daemon is in central Munich
/// (`Fallback=48.1372,11.5755`, `Precision=2`: the cell 48.14,11.58). `nobody`, a public reader
/// at `PublicPrecision=1` (48.1,11.6), is told "near Munich", chosen from the rounded position
/// alone — not "4 km N of Unterhaching", the city nearest to it — with no distance or bearing;
/// root keeps the nearest city to its position, with its distance.
@Suite(.enabled(if: geteuid() == 0, "needs root to read the socket as nobody"))
struct PublicPlaceTests {
    @Test func nobodyInCentralMunichIsToldNearMunich() async throws {
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let cities = try await RealCityTable.image()
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                Fallback=48.1372,11.5755
                [Weather]
                URL=\(http.baseURL)
                Precision=2
                [Socket]
                PublicPrecision=1
                [Places]
                Cities=\(cities.path)
                OnlineGeocoding=no
                """)
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let precise = try await daemon.waitForState("fresh weather") { $0["status"] as? String == "fresh" }
        #expect(precise[path: "location.place.name"] as? String == "Munich")
        #expect(precise[path: "location.place.distance"] as? Int != nil, "\(precise)")

        let socat = try ChildProcess(
            [
                "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "30",
                "-", "UNIX-CONNECT:\(daemon.socketPath)",
            ], stdinPipe: true, separateStderr: true)
        socat.writeToStdin(Array("now\n".utf8))
        socat.closeStdin()
        #expect(try await socat.exited(timeout: .seconds(60)) == 0, "socat: \(socat.errorOutput.rawText)")
        try await socat.output.waitForEnd("socat's output")
        let line = try #require(socat.output.lines.first)
        let shown = try #require(try SocketProtocol.decodeState(Array(line.utf8)).location)
        #expect(shown.latitude == 48.1 && shown.longitude == 11.6)
        #expect(shown.place?.name == "Munich", "\(line)")
        #expect(shown.place?.distance == nil && shown.place?.bearing == nil, "\(line)")
        #expect(PlaceText.location(shown) == "near Munich")
        #expect(await daemon.stop() == 0)
    }
}
