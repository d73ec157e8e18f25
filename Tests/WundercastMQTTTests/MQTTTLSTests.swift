import Foundation
import Testing
import WundercastModel
@testable import WundercastMQTT
import WundercastPOSIX
import WundercastSupport
import WundercastTestSupport

/// `mqtts://`: the broker's certificate is always verified, against `CAFile=` and the host name
/// as configured; a client certificate goes along when the broker requires one. Certificates
/// made by `openssl` for each test.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(if: MosquittoBroker.isInstalled, "needs Debian's mosquitto and mosquitto-clients"))
struct MQTTTLSTests {
    func broker(_ certificates: TestCertificates) async throws -> MosquittoBroker {
        try await MosquittoBroker.start(
            extra: """
                cafile \(certificates.caFile)
                certfile \(certificates.serverCertificate)
                keyfile \(certificates.serverKey)
                require_certificate true
                """)
    }

    func client(port: Int, caFile: String, certificates: TestCertificates, log: CapturedLog) -> MQTTClient {
        MQTTClient(
            settings: .init(
                host: "localhost", port: port,
                tls: .init(
                    caFile: caFile, certFile: certificates.clientCertificate, keyFile: certificates.clientKey),
                clientID: "wundercast-tls-\(UUID().uuidString.prefix(8))", availabilityTopic: "van/availability",
                backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(200))),
            clock: ContinuousLoopClock(loop: MQTTClientTests.loop), logger: log.logger)
    }

    /// The right CA and a client certificate: connected over TLS, the state published.
    @Test func aBrokerSignedByTheConfiguredCAIsConnected() async throws {
        let certificates = try await TestCertificates.make()
        let broker = try await broker(certificates)
        let log = CapturedLog()
        let client = client(port: broker.port, caFile: certificates.caFile, certificates: certificates, log: log)
        client.publish("van/state", Array("tls".utf8))
        client.start()
        #expect(await log.wait { MQTTClientTests.connected($0) }, "\(log.all.map(\.message)); broker: \(broker.log)")
        try await broker.waitForLog(containing: "Received PUBLISH from \(client.settings.clientID)")
        #expect(client.status.broker == "mqtts://localhost:\(broker.port)")
        await client.stop()
    }

    /// A CA that did not sign the broker's certificate: never connected, the TLS error logged
    /// once and retried with back-off.
    @Test func aBrokerTheConfiguredCADidNotSignIsRefused() async throws {
        let certificates = try await TestCertificates.make()
        let broker = try await broker(certificates)
        let log = CapturedLog()
        let client = client(port: broker.port, caFile: certificates.otherCAFile, certificates: certificates, log: log)
        client.start()
        #expect(await log.wait { $0.count(where: { $0.field(MQTTClient.retryDelayField) != nil }) >= 3 })
        #expect(!client.status.connected)
        #expect(!log.all.contains { $0.field("MESSAGE_ID") == MessageID.brokerConnected })
        // The TLS error is logged; the status keeps only the last failure, which may be a quiet
        // one (the process's one connect thread still held by another test's name lookup).
        #expect(log.all.contains { $0.message.contains("TLS") }, "\(log.all.map(\.message)); \(client.status)")
        await client.stop()
    }
}
