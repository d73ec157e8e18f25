import WundercastSupport
import WundercastModel

/// The effective configuration as text (`wundercastd --check-config`): every section and key
/// with its value spelt as the configuration file takes it, and where it came from.
extension ParsedConfiguration {
    /// Every section of ``Configuration/sections`` in order, a blank line between them; one
    /// line per key: `Key=value  # file:line`, or `Key=value  # (default)` for a key no file
    /// set. An unset optional value is empty (`URL=  # (default)`). Control characters in a
    /// value (only a `Fallback=` place name may hold one) are shown as `\u{…}` escapes. No key
    /// holds a secret: API keys and passwords are refused in the file (`APIKeyFile=` and
    /// `[MQTT] PasswordFile=` are paths, and no file is read here).
    ///
    /// Example line: `GPSD=127.0.0.1:2947  # /etc/wundercast/wundercast.conf:12`.
    public func effectiveText() -> String {
        Configuration.sections.map { section in
            let lines = section.keys.map { key in
                let name = "\(section.name).\(key.name)"
                let value = Configuration.effectiveValues[name]?(configuration) ?? "?"
                let origin = origins[name].map(\.description) ?? "(default)"
                return "\(key.name)=\(Configuration.escapingControls(value))  # \(origin)"
            }
            return (["[\(section.name)]"] + lines).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}

extension Configuration {
    /// The keys whose effective values differ from `other`'s, as `Key=value` (`[Section] Key=value`
    /// where the name is in two sections), in the order of ``sections``: what a reload changes.
    public func changedKeys(from other: Configuration) -> [String] {
        let names = Self.sections.flatMap { $0.keys.map(\.name) }
        return Self.sections.flatMap { section in
            section.keys.compactMap { key -> String? in
                guard let value = Self.effectiveValues["\(section.name).\(key.name)"],
                    value(self) != value(other)
                else { return nil }
                let shown = "\(key.name)=\(Self.escapingControls(value(self)))"
                return names.filter { $0 == key.name }.count > 1 ? "[\(section.name)] \(shown)" : shown
            }
        }
    }

    /// `"Section.Key"` → the key's value in ``ParsedConfiguration/effectiveText()``, as the
    /// parser reads it back. Every key of ``sections`` has one (a test checks).
    static let effectiveValues: [String: @Sendable (Configuration) -> String] = [
        "Location.Authorization": { $0.location.authorization.configName },
        "Location.GPSD": { c in
            let host = c.location.gpsdHost
            return (host.contains(":") ? "[\(host)]" : host) + ":\(c.location.gpsdPort)"
        },
        "Location.MaxHorizontalError": { Distance.format($0.location.maxHorizontalError) },
        "Location.MaxFixAge": { TimeSpan.format($0.location.maxFixAge) },
        "Location.Fallback": { c in
            switch c.location.fallback {
            case nil: ""
            case .coordinate(let p):
                Coordinate.text(p.latitude, decimals: 8) + "," + Coordinate.text(p.longitude, decimals: 8)
            case .name(let name), .resolved(let name, _): name
            }
        },
        "Throttle.MinInterval": { TimeSpan.format($0.throttle.minInterval) },
        "Throttle.MinDistance": { Distance.format($0.throttle.minDistance) },
        "Throttle.MaxAge": { TimeSpan.format($0.throttle.maxAge) },
        "Weather.Provider": { $0.weather.provider.rawValue },
        "Weather.URL": { $0.weather.url ?? "" },
        "Weather.Contact": { $0.weather.contact ?? "" },
        "Weather.Units": { $0.weather.units.rawValue },
        "Weather.TemperatureUnit": { $0.weather.temperatureUnit?.rawValue ?? "" },
        "Weather.WindSpeedUnit": { $0.weather.windSpeedUnit?.rawValue ?? "" },
        "Weather.PressureUnit": { $0.weather.pressureUnit?.rawValue ?? "" },
        "Weather.PrecipitationUnit": { $0.weather.precipitationUnit?.rawValue ?? "" },
        "Weather.Precision": { String($0.weather.precision) },
        "Weather.Timeout": { TimeSpan.format($0.weather.timeout) },
        "Weather.Cell": { $0.weather.cell.rawValue },
        "Weather.Days": { String($0.weather.days) },
        "Weather.Marine": { $0.weather.marine.rawValue },
        "Weather.MarineURL": { $0.weather.marineURL ?? "" },
        "Weather.APIKeyFile": { $0.weather.apiKeyFile ?? "" },
        "Weather.Language": { $0.weather.language ?? "" },
        "Socket.Path": { $0.socket.path },
        "Socket.Mode": { c in
            let octal = String(c.socket.mode, radix: 8)
            return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
        },
        "Socket.PreciseGroup": { $0.socket.preciseGroup },
        "Socket.PublicPrecision": { String($0.socket.publicPrecision) },
        "Socket.MaxClients": { String($0.socket.maxClients) },
        "Socket.IdleTimeout": { TimeSpan.format($0.socket.idleTimeout) },
        "Socket.SendTimeout": { TimeSpan.format($0.socket.sendTimeout) },
        "Socket.LookupsPerMinute": { String($0.socket.lookupsPerMinute) },
        "Places.OnlineGeocoding": { $0.places.onlineGeocoding ? "yes" : "no" },
        "Places.GeocodingURL": { $0.places.geocodingURL },
        "Places.Cities": { $0.places.cities },
        "Journal.Precision": { String($0.journal.precision) },
        "Cache.Enabled": { $0.cache.enabled ? "yes" : "no" },
        "Cache.Path": { $0.cache.path ?? "" },
        "Cache.Precision": { String($0.cache.precision) },
        "Cache.ClockSyncFile": { $0.cache.clockSyncFile ?? "" },
        "MQTT.Broker": { $0.mqtt.broker?.description ?? "" },
        "MQTT.ClientID": { $0.mqtt.clientID ?? "" },
        "MQTT.TopicPrefix": { $0.mqtt.topicPrefix ?? "" },
        "MQTT.Username": { $0.mqtt.username ?? "" },
        "MQTT.PasswordFile": { $0.mqtt.passwordFile ?? "" },
        "MQTT.CAFile": { $0.mqtt.caFile ?? "" },
        "MQTT.CertFile": { $0.mqtt.certFile ?? "" },
        "MQTT.KeyFile": { $0.mqtt.keyFile ?? "" },
        "MQTT.QoS": { String($0.mqtt.qos.rawValue) },
        "MQTT.Precision": { $0.mqtt.precision.map(String.init) ?? "" },
        "MQTT.Discovery": { $0.mqtt.discovery ? "yes" : "no" },
        "MQTT.DiscoveryPrefix": { $0.mqtt.discoveryPrefix },
        "MQTT.OwnTracks": { $0.mqtt.ownTracks?.description ?? "" },
        "Alerts.Sources": { $0.alerts.sourcesText },
        "Alerts.Interval": { TimeSpan.format($0.alerts.interval) },
        "Alerts.NWSURL": { $0.alerts.urls[.nws] ?? "" },
        "Alerts.MetAlertsURL": { $0.alerts.urls[.metAlerts] ?? "" },
        "Alerts.BrightSkyURL": { $0.alerts.urls[.brightSky] ?? "" },
        "Alerts.ECCCURL": { $0.alerts.urls[.eccc] ?? "" },
    ]

    /// `text` with control characters (C0, DEL, C1, U+2028/9) as `\u{…}` escapes.
    static func escapingControls(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                out += "\\u{" + String(v, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
