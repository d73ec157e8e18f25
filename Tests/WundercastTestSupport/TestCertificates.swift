import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A test CA and the certificates it signs, made by Debian's `openssl` in a directory of the
/// test's: a server certificate for `localhost` and 127.0.0.1 (a broker's), a client
/// certificate, and a second CA that signed neither (the wrong one). PEM files, readable by a
/// broker that runs as another user.
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caFile: String { path("ca.crt") }
    public var serverCertificate: String { path("server.crt") }
    public var serverKey: String { path("server.key") }
    public var clientCertificate: String { path("client.crt") }
    public var clientKey: String { path("client.key") }
    /// A CA that signed nothing here.
    public var otherCAFile: String { path("other-ca.crt") }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes them all (a few hundred ms: 2048-bit RSA keys).
    public static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = chmod(directory.path, 0o755)
        let made = TestCertificates(directory: directory)
        for ca in ["ca", "other-ca"] {
            try await made.openssl(
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=wundercast test \(ca)",
                "-keyout", made.path("\(ca).key"), "-out", made.path("\(ca).crt"))
        }
        for (name, subject, extensions) in [
            ("server", "/CN=localhost", "subjectAltName=DNS:localhost,IP:127.0.0.1"),
            ("client", "/CN=wundercast-van", "extendedKeyUsage=clientAuth"),
        ] {
            try await made.openssl(
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", made.path("\(name).key"),
                "-out", made.path("\(name).csr"))
            try "\(extensions)\n".write(toFile: made.path("\(name).ext"), atomically: true, encoding: .utf8)
            try await made.openssl(
                "x509", "-req", "-in", made.path("\(name).csr"), "-CA", made.caFile, "-CAkey", made.path("ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", made.path("\(name).ext"), "-out", made.path("\(name).crt"))
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            _ = chmod(made.path(file), 0o644)
        }
        return made
    }

    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: String...) async throws {
        let result = try await runProcess("/usr/bin/openssl", arguments)
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }
}
