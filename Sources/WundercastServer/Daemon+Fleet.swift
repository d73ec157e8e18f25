import Synchronization
import WundercastConfiguration
import WundercastFleet
import WundercastModel
import WundercastPipeline
import WundercastMQTT
import WundercastPOSIX
import WundercastSupport
import WundercastSystemd

extension Daemon {
    /// What `[MQTT]` makes, resolved: the client's settings (the default client id and topic
    /// prefix filled in, the password read), the topics and what is published on them.
    struct FleetSetup: Sendable, Equatable {
        var client: MQTTClient.Settings
        var topics: FleetTopics
        /// Decimals of published positions (`[MQTT] Precision=`, else `[Weather] Precision=`).
        var precision: Int
        /// `nil`: `Discovery=no`.
        var discovery: HomeAssistantDiscovery?
        var ownTracks: OwnTracksDevice?
    }

    /// Why `[MQTT]` cannot be put in force; names the key or file, never a password.
    struct FleetSetupError: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The name of the password under systemd's `LoadCredential=NAME:PATH`.
    static let mqttCredentialName = "mqtt"

    /// `[MQTT]` resolved, or `nil` without `Broker=` (MQTT off).
    ///
    /// - Client id: `ClientID=`, else `wundercast-<app-specific machine id>` (never the raw one,
    ///   machine-id(5)), with `-u<UID>` for a daemon that is not the system service (run by a
    ///   user's manager, `$MANAGERPID`, or by hand as another user than root).
    /// - Topic prefix: `TopicPrefix=`, else `wundercast/<hostname>`.
    /// - Password: `PasswordFile=`, else `$CREDENTIALS_DIRECTORY/mqtt` when it exists; sent only
    ///   where ``WundercastConfiguration/MQTTBroker/allowsPassword`` (TLS or loopback).
    /// - Throws: ``FleetSetupError``: an unreadable password file, a prefix or id that makes no
    ///   valid topic, no machine id for the default client id.
    static func fleetSetup(
        _ configuration: Configuration, environment: (String) -> String? = Environment.value,
        read: (String, Int) throws(WholeFile.ReadError) -> [UInt8] = { path, limit throws(WholeFile.ReadError) in
            try WholeFile.read(path: path, limit: limit)
        },
        machineID: () throws(SystemdError) -> String = { () throws(SystemdError) in try MachineID.appSpecific() },
        hostName: String? = HostName.current, effectiveUser: UInt32 = ProcessControl.effectiveUser
    ) throws(FleetSetupError) -> FleetSetup? {
        let mqtt = configuration.mqtt
        guard let broker = mqtt.broker else { return nil }
        let appID: String
        do {
            appID = try machineID()
        } catch {
            throw FleetSetupError(description: "[MQTT] needs this machine's id (/etc/machine-id): \(error)")
        }
        let system = environment("MANAGERPID") == nil && (effectiveUser == 0 || environment("INVOCATION_ID") != nil)
        // The device's id in discovery and the client id: `ClientID=` when set (several daemons
        // on one machine, each its own device), else from the app-specific machine id.
        let deviceID = mqtt.clientID ?? ("wundercast-" + appID.prefix(16) + (system ? "" : "-u\(effectiveUser)"))
        let host = (hostName ?? "localhost").filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let prefix = mqtt.topicPrefix ?? "wundercast/\(host.isEmpty ? "localhost" : host)"
        let topics: FleetTopics
        let discovery: HomeAssistantDiscovery?
        do throws(FleetTopicError) {
            topics = try FleetTopics(prefix: prefix)
            discovery =
                mqtt.discovery
                ? try HomeAssistantDiscovery(
                    discoveryPrefix: mqtt.discoveryPrefix, deviceID: deviceID,
                    deviceName: host.isEmpty ? "wundercast" : host, topics: topics,
                    units: configuration.weather.unitPreferences, marine: configuration.weather.marine != .no)
                : nil
        } catch {
            throw FleetSetupError(description: "[MQTT]: \(error)")
        }
        let password = try mqttPassword(mqtt, broker: broker, environment: environment, read: read)
        // TLS files must be there and readable before libmosquitto is given them (its error
        // names no file).
        for (key, path) in [("CAFile", mqtt.caFile), ("CertFile", mqtt.certFile), ("KeyFile", mqtt.keyFile)] {
            guard let path, broker.usesTLS else { continue }
            do {
                _ = try read(path, 1 << 20)
            } catch {
                throw FleetSetupError(description: "cannot read [MQTT] \(key)=\(path): \(error.reason)")
            }
        }
        let client = MQTTClient.Settings(
            host: broker.host, port: broker.port,
            tls: broker.usesTLS ? .init(caFile: mqtt.caFile, certFile: mqtt.certFile, keyFile: mqtt.keyFile) : nil,
            clientID: deviceID, username: mqtt.username, password: password,
            qos: Int32(mqtt.qos.rawValue), availabilityTopic: topics.availability,
            subscriptions: discovery.map { [$0.homeAssistantStatusTopic] } ?? [])
        return FleetSetup(
            client: client, topics: topics, precision: configuration.mqttPrecision, discovery: discovery,
            ownTracks: mqtt.ownTracks)
    }

    /// The broker password: `PasswordFile=`, else the credential `$CREDENTIALS_DIRECTORY/mqtt`
    /// when there is one; `nil` without `Username=`. A credential found for a broker that may
    /// not get it (plain `mqtt://` beyond loopback) is refused, as `PasswordFile=` is.
    private static func mqttPassword(
        _ mqtt: Configuration.MQTTSettings, broker: MQTTBroker, environment: (String) -> String?,
        read: (String, Int) throws(WholeFile.ReadError) -> [UInt8]
    ) throws(FleetSetupError) -> String? {
        guard mqtt.username != nil else { return nil }
        let path: String
        let source: String
        if let file = mqtt.passwordFile {
            (path, source) = (file, "[MQTT] PasswordFile=\(file)")
        } else if let directory = environment("CREDENTIALS_DIRECTORY"), !directory.isEmpty {
            path = directory + "/" + mqttCredentialName
            source = "the credential \(path) (LoadCredential=\(mqttCredentialName))"
            let exists = (try? read(path, APIKey.maxFileSize)) != nil
            guard exists else { return nil }
        } else {
            return nil
        }
        guard broker.allowsPassword else {
            throw FleetSetupError(
                description: "\(source): a password is not sent over plain mqtt:// to \(broker.host); use mqtts://")
        }
        let bytes: [UInt8]
        do {
            bytes = try read(path, APIKey.maxFileSize)
        } catch {
            throw FleetSetupError(description: "cannot read the MQTT password from \(source): \(error.reason)")
        }
        do {
            return try APIKey.parse(bytes)
        } catch {
            throw FleetSetupError(description: "the MQTT password file, \(source), \(error.text(for: "password"))")
        }
    }
}

extension Daemon {
    /// `[MQTT]` (and what its messages depend on: `[Weather] Precision=` and the units): when the
    /// connection's settings stay (broker, client id, credentials, TLS, QoS, topic prefix — the
    /// will —, discovery prefix — the subscription), the running publisher takes the rest in
    /// place; else it is replaced — the old one stops cleanly, the new one connects. A setup that
    /// fails (an unreadable password file, a prefix that makes no topic) rejects the reload.
    final class FleetPart: ConfigurationPart, Sendable {
        let fleet: FleetRunner
        let make: @Sendable (FleetSetup?, Configuration, Daemon.WeatherSide) -> FleetPublisher?
        private let prepared = Mutex<FleetSetup??>(nil)

        init(
            fleet: FleetRunner,
            make: @escaping @Sendable (FleetSetup?, Configuration, Daemon.WeatherSide) -> FleetPublisher?
        ) {
            self.fleet = fleet
            self.make = make
        }

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool {
            old.mqtt != new.mqtt || old.mqttPrecision != new.mqttPrecision
                || old.weather.unitPreferences != new.weather.unitPreferences
        }

        func prepare(_ change: inout ConfigurationSource.Change) async throws(ConfigurationSource.Rejection) {
            do throws(FleetSetupError) {
                let setup = try Daemon.fleetSetup(change.new)
                prepared.withLock { $0 = .some(setup) }
            } catch {
                throw ConfigurationSource.Rejection(reason: error.description)
            }
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async -> [ConfigurationSource.Applied] {
            guard case .some(let setup) = prepared.withLock({ $0 }) else { return [] }
            let inPlace = fleet.apply(make(setup, change.new, change.weather))
            guard let setup else { return [.done("MQTT off")] }
            return [
                .done(
                    inPlace
                        ? "MQTT messages to \(setup.client.broker) as now configured (the connection kept)"
                        : "MQTT publisher for \(setup.client.broker) on \(setup.topics.prefix)/… started again")
            ]
        }
    }
}
