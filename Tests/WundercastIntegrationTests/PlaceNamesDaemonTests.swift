import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// Place names as readers get them (issue 18, item 7), with the real daemon, the real city table
/// and `wundercastctl`.
@Suite struct PlaceNamesDaemonTests {
    /// A daemon under `denied` with the real city table (no online geocoding) asking `http`;
    /// `more`: further lines, after `[Location] Authorization=denied`.
    static func daemon(_ http: FixtureHTTPServer, _ more: String) async throws -> DaemonProcess {
        let cities = try await RealCityTable.image()
        return try await DaemonProcess(
            configuration: """
                [Places]
                Cities=\(cities.path)
                OnlineGeocoding=no
                [Location]
                Authorization=denied
                \(more)
                [Weather]
                URL=\(http.baseURL)
                """)
    }

    /// The daemon is in central Munich (`Fallback=48.1372,11.5755`, `Precision=2`: the cell
    /// 48.14,11.58). `nobody`, a public reader at `PublicPrecision=1` (48.1,11.6), is told "near
    /// Munich", chosen from the rounded position alone — not "4 km N of Unterhaching", the city
    /// nearest to it — with no distance or bearing; root keeps the nearest city with its distance.
    @Test(.enabled(if: geteuid() == 0, "needs root to read the socket as nobody"))
    func nobodyInCentralMunichIsToldNearMunich() async throws {
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let daemon = try await Self.daemon(
            http, "Fallback=48.1372,11.5755\n[Weather]\nPrecision=2\n[Socket]\nPublicPrecision=1")
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let precise = try await daemon.waitForState("fresh weather") { $0["status"] as? String == "fresh" }
        #expect(precise[path: "location.place.name"] as? String == "Munich")
        #expect(precise[path: "location.place.distance"] as? Int != nil, "\(precise)")

        let line = try await daemon.firstLine(asNobody: "now")
        let shown = try #require(try SocketProtocol.decodeState(Array(line.utf8)).location)
        #expect(shown.latitude == 48.1 && shown.longitude == 11.6)
        #expect(shown.place?.name == "Munich", "\(line)")
        #expect(shown.place?.distance == nil && shown.place?.bearing == nil, "\(line)")
        #expect(PlaceText.location(shown) == "near Munich")
        #expect(await daemon.stop() == 0)
    }

    /// `weather Springfield` no longer picks Missouri silently: the line names region and country
    /// and says that seven other places share the name and how to ask for one; `--json` lists
    /// them in `location.alternatives`; `Springfield, IL` is Illinois's alone.
    @Test func springfieldSaysWhichAndThatOthersShareTheName() async throws {
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let daemon = try await Self.daemon(http, "")
        let line = try await daemon.ctl("weather", "Springfield")
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout.contains(", Springfield, Missouri, US, "), "\(line.stdout)")
        #expect(
            line.stdout.hasSuffix(" (also 7 other places named Springfield: ask for 'Springfield, Massachusetts')\n"),
            "\(line.stdout)")

        let json = try await daemon.ctl("weather", "Springfield", "--json")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(answer[path: "location.place.region"] as? String == "Missouri")
        let alternatives = try #require(answer[path: "location.alternatives"] as? [[String: Any]], "\(json.stdout)")
        #expect(alternatives.count == 7)
        #expect(Set(alternatives.compactMap { $0["country"] as? String }) == ["US"])
        let illinois = try #require(alternatives.first { $0["region"] as? String == "Illinois" })
        #expect(illinois["name"] as? String == "Springfield")
        #expect(illinois["latitude"] as? Double == 39.80172 && illinois["longitude"] as? Double == -89.64371)
        #expect(illinois["population"] as? Int == 116_565)
        #expect(!alternatives.contains { $0["region"] as? String == "Missouri" })

        let named = try await daemon.ctl("weather", "Springfield, IL", "--json")
        let one = try #require(try JSONSerialization.jsonObject(with: Data(named.stdout.utf8)) as? [String: Any])
        #expect(one[path: "location.place.region"] as? String == "Illinois")
        #expect(one[path: "location.alternatives"] == nil)
        let illinoisLine = try await daemon.ctl("weather", "Springfield, IL").stdout
        #expect(illinoisLine.contains(", Springfield, ") && !illinoisLine.contains("other place"), "\(illinoisLine)")
        #expect(await daemon.stop() == 0)
    }
}
