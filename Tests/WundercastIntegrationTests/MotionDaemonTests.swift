import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastTestSupport

/// Moving or not with the real daemon (issue 19, item 5): a receiver reporting 2.2 m/s on a
/// track of 212.4°, `WindSpeedUnit=kn`. Root (a precise reader) gets the speed in knots and the
/// course, also through `{speed}` and `{course}`; `nobody` (a public reader) gets `moving` alone.
@Suite struct MotionDaemonTests {
    static let tpv =
        #"{"class":"TPV","device":"/dev/ttyFAKE0","mode":3,"time":"2026-12-06T12:00:00.000Z","lat":38.1087,"lon":-122.8629,"eph":5.0,"speed":2.2,"track":212.4}"#

    @Test(.enabled(if: geteuid() == 0, "needs root to read the socket as nobody"))
    func preciseReadersGetSpeedAndCourseAndPublicReadersOnlyMoving() async throws {
        let gpsd = try FakeGPSD(tpv: Self.tpv, interval: 0.2)
        defer { gpsd.stop() }
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=always
                GPSD=127.0.0.1:\(gpsd.port)
                MaxHorizontalError=10km
                [Weather]
                URL=\(http.baseURL)
                WindSpeedUnit=kn
                """)
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let precise = try await daemon.waitForState("moving") { $0[path: "location.motion.moving"] as? Bool == true }
        #expect(precise[path: "location.motion.speed"] as? Double == 4.3, "\(precise)")
        #expect(precise[path: "location.motion.course"] as? Double == 212)
        #expect(precise[path: "location.motion.units.speed"] as? String == "kn")
        let text = try await daemon.ctl("now", "--template", "{speed} {course}")
        #expect(text.stdout == "4.3 kn 212°\n", "\(text.stderr)")

        let line = try await daemon.firstLine(asNobody: "now")
        #expect(try SocketProtocol.decodeState(Array(line.utf8)).location?.motion == WeatherState.Motion(moving: true))
        #expect(!line.contains("speed") && !line.contains("course"), "\(line)")
        #expect(await daemon.stop() == 0)
    }
}
