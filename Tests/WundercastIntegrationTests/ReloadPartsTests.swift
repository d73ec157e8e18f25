import Foundation
import Testing

@testable import WundercastConfiguration
@testable import WundercastServer

/// Every key of the configuration is applied by a reload (or, `[Socket] Path=` and `[Cache]`,
/// said to need a restart): none is read again and silently ignored. The parts are the
/// configuration source's (``ConfigurationPart/touches(_:_:)``).
@Suite struct ReloadPartsTests {
    enum Part: CaseIterable {
        case authorization, weather, pipeline, socket, viewers, restart, health, fleet
    }

    /// Which parts of the configuration source a reload from `old` to `new` touches.
    static func touched(_ old: Configuration, _ new: Configuration) -> Set<Part> {
        let parts: [Part: any ConfigurationPart.Type] = [
            .authorization: Daemon.AuthorizationPart.self, .weather: Daemon.WeatherPart.self,
            .pipeline: Daemon.PipelinePart.self, .socket: Daemon.SocketPart.self, .viewers: Daemon.ViewersPart.self,
            .restart: Daemon.RestartPart.self, .health: Daemon.HealthPart.self, .fleet: Daemon.FleetPart.self,
        ]
        return Set(parts.filter { $0.value.touches(old, new) }.keys)
    }

    /// A valid value other than the default, per key, and the part a reload restarts for it.
    static let changes: [String: (value: String, part: Part)] = [
        "Location.Authorization": ("ask", .authorization),
        "Location.GPSD": ("10.0.0.7:2948", .pipeline),
        "Location.MaxHorizontalError": ("30m", .pipeline),
        "Location.MaxFixAge": ("5min", .pipeline),
        "Location.Fallback": ("52.37,4.89", .pipeline),
        "Throttle.MinInterval": ("5min", .pipeline),
        "Throttle.MinDistance": ("3km", .pipeline),
        "Throttle.MaxAge": ("30min", .weather),
        "Weather.Provider": ("openweathermap", .weather),
        "Weather.URL": ("http://127.0.0.1:8080", .weather),
        "Weather.Contact": ("ops@example.org", .weather),
        "Weather.Units": ("imperial", .weather),
        "Weather.TemperatureUnit": ("fahrenheit", .weather),
        "Weather.WindSpeedUnit": ("kn", .weather),
        "Weather.PressureUnit": ("inHg", .weather),
        "Weather.PrecipitationUnit": ("inch", .weather),
        "Weather.Precision": ("3", .weather),
        "Weather.Timeout": ("20s", .weather),
        "Weather.Cell": ("sea", .weather),
        "Weather.Days": ("5", .weather),
        "Weather.Marine": ("no", .weather),
        "Weather.MarineURL": ("http://127.0.0.1:8080", .weather),
        "Weather.APIKeyFile": ("/etc/wundercast/key", .weather),
        "Weather.Language": ("de", .weather),
        "Socket.Path": ("/run/wundercast/other.sock", .socket),
        "Socket.Mode": ("0660", .socket),
        "Socket.PreciseGroup": ("adm", .socket),
        "Socket.PublicPrecision": ("2", .socket),
        "Socket.MaxClients": ("64", .socket),
        "Socket.IdleTimeout": ("30s", .socket),
        "Socket.SendTimeout": ("2min", .socket),
        "Socket.LookupsPerMinute": ("10", .weather),
        "Places.OnlineGeocoding": ("no", .weather),
        "Places.GeocodingURL": ("http://127.0.0.1:8081", .weather),
        "Places.Cities": ("/var/lib/cities.bin", .weather),
        "Journal.Precision": ("3", .viewers),
        "Cache.Enabled": ("no", .restart),
        "Cache.Path": ("/var/tmp/state.json", .restart),
        "Cache.Precision": ("1", .restart),
        "Cache.ClockSyncFile": ("", .restart),
        "MQTT.Broker": ("mqtt://localhost", .fleet),
        "MQTT.ClientID": ("van", .fleet),
        "MQTT.TopicPrefix": ("fleet/van", .fleet),
        "MQTT.Username": ("van", .fleet),
        "MQTT.PasswordFile": ("/etc/wundercast/mqtt.password", .fleet),
        "MQTT.CAFile": ("/etc/ssl/ca.pem", .fleet),
        "MQTT.CertFile": ("/etc/wundercast/van.crt", .fleet),
        "MQTT.KeyFile": ("/etc/wundercast/van.key", .fleet),
        "MQTT.QoS": ("0", .fleet),
        "MQTT.Precision": ("1", .fleet),
        "MQTT.Discovery": ("no", .fleet),
        "MQTT.DiscoveryPrefix": ("ha", .fleet),
        "MQTT.OwnTracks": ("alice/van", .fleet),
        "Alerts.Sources": ("nws", .pipeline),
        "Alerts.Interval": ("15min", .pipeline),
        "Alerts.NWSURL": ("http://127.0.0.1:8080", .pipeline),
        "Alerts.MetAlertsURL": ("http://127.0.0.1:8080", .pipeline),
        "Alerts.BrightSkyURL": ("http://127.0.0.1:8080", .pipeline),
        "Alerts.ECCCURL": ("http://127.0.0.1:8080", .pipeline),
    ]

    static var allKeys: [String] {
        Configuration.sections.flatMap { section in section.keys.map { "\(section.name).\($0.name)" } }
    }

    @Test func everyKeyIsInTheTable() {
        #expect(Set(Self.allKeys) == Set(Self.changes.keys))
    }

    @Test(arguments: ReloadPartsTests.allKeys)
    func aChangedKeyRestartsItsPart(key: String) throws {
        let change = try #require(Self.changes[key], "\(key) has no entry")
        let parts = key.split(separator: ".")
        let text = "[\(parts[0])]\n\(parts[1])=\(change.value)\n"
        let changed = try Configuration.parse(text)
        let base = Configuration()
        #expect(changed != base, "\(key)=\(change.value) is the default")
        let touched = Self.touched(base, changed)
        #expect(touched.contains(change.part), "\(key): \(touched)")
        #expect(Self.touched(changed, changed).isEmpty)
        if change.part == .weather { #expect(touched.contains(.pipeline), "a new weather side, a new pipeline") }
        if change.part != .weather { #expect(!touched.contains(.weather), "\(key) keeps the weather side") }
        #expect(touched.contains(.health) == (key == "Location.GPSD"), "\(key): only GPSD= is health's")
    }
}
