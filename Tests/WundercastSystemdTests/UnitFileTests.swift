import Foundation
import Testing

/// What issue 8 asks of the units, read from the files (`Tests/Tools/check-units.sh` verifies
/// them with systemd-analyze and checks the exposure scores).
@Suite struct UnitFileTests {
    /// The settings of a unit file (comments and blank lines left out), as `Key=value` lines.
    static func settings(_ relativePath: String) throws -> [String] {
        try String(contentsOf: CatalogTests.root.appendingPathComponent(relativePath), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0.contains("=") }
    }

    static func values(_ key: String, in settings: [String]) -> [String] {
        settings.filter { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func systemServiceStartsBeforeTheNetworkAndIsCapped() throws {
        let s = try Self.settings("systemd/wundercast.service")
        // The cached weather is served before the network is up.
        #expect(!s.contains { $0.contains("network-online.target") }, "\(s)")
        #expect(Self.values("After", in: s).joined(separator: " ").split(separator: " ").contains("gpsd.socket"))
        #expect(
            Self.values("RestrictAddressFamilies", in: s).first?.split(separator: " ").contains("AF_NETLINK") == true)
        #expect(Self.values("MemoryMax", in: s) == ["96M"])
        #expect(Self.values("TasksMax", in: s) == ["64"])
        // The credentials the daemon reads: a provider's key (ProviderSetupTests.systemdsCredentialServesAsTheKey)
        // and the MQTT broker's password (FleetSetupTests).
        #expect(Self.values("LoadCredential", in: s) == ["openweathermap", "mqtt"])
        #expect(Self.values("DynamicUser", in: s) == ["yes"])
    }

    @Test func userUnitsAreSandboxedAndListenInTheRuntimeDirectory() throws {
        let s = try Self.settings("systemd/user/wundercast.service")
        // Without it the mount-namespace options do nothing in a user unit on systemd 252.
        #expect(Self.values("PrivateUsers", in: s) == ["yes"])
        for key in ["ProtectSystem", "ProtectHome", "PrivateTmp", "PrivateDevices", "ProtectKernelTunables"] {
            #expect(!Self.values(key, in: s).isEmpty, "\(key)=")
        }
        #expect(Self.values("CapabilityBoundingSet", in: s) == [""])
        let socket = try Self.settings("systemd/user/wundercast.socket")
        #expect(Self.values("ListenStream", in: socket) == ["%t/wundercast/wundercast.sock"])
        #expect(Self.values("SocketMode", in: socket) == ["0600"])
    }
}
