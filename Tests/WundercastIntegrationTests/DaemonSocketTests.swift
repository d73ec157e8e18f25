import Foundation
import Testing
import WundercastTestSupport

/// The daemon's own wiring of `[Socket]`: the mode of the socket it binds, a missing
/// `PreciseGroup=`, and the limits taken from the configuration.
@Suite struct DaemonSocketTests {
    @Test func theDaemonGivesItsSocketModeAndWarnsOnceAboutAMissingGroup() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                [Socket]
                Mode=0640
                PreciseGroup=no-such-group-wundercast
                MaxClients=1
                """)
        var info = stat()
        #expect(stat(daemon.socketPath, &info) == 0)
        #expect(UInt32(info.st_mode) & 0o7777 == 0o640)
        #expect(daemon.log.components(separatedBy: "PreciseGroup=no-such-group-wundercast: no such group").count == 2)
        // MaxClients=1: a second connection is refused while the first stays.
        let first = try LineClient(path: daemon.socketPath)
        defer { first.close() }
        first.send("version\n")
        #expect(try jsonObject(await first.readLine())["class"] as? String == "VERSION")
        let second = try LineClient(path: daemon.socketPath)
        defer { second.close() }
        #expect(try jsonObject(await second.readLine())["code"] as? String == "too-many-clients")
    }
}
