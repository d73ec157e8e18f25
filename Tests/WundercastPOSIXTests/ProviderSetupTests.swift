import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastConfiguration
import WundercastPOSIX
import WundercastPipeline

@testable import WundercastServer

/// `Provider=` at start: the factory, and the API key from `APIKeyFile=` or systemd's
/// `$CREDENTIALS_DIRECTORY` (issue 7, point 1). No message ever repeats a key file's content.
@Suite struct ProviderSetupTests {
    static let key = "0123456789abcdef0123456789abcdef"

    /// A private directory with `files` (name → content), mode 0600 each.
    static func directory(_ files: [String: [UInt8]]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wundercast-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, bytes) in files {
            let path = url.appendingPathComponent(name).path
            #expect(
                FileManager.default.createFile(
                    atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        }
        return url
    }

    /// The loop the providers' HTTP clients are made on (nothing is fetched).
    static let loop = try! EventLoop(name: "provider-tests")

    static func configuration(_ text: String) throws -> Configuration {
        try Configuration.parse("[Weather]\nProvider=openweathermap\n" + text)
    }

    static func setUp(
        _ configuration: Configuration, credentials: String? = nil
    ) -> Result<any WeatherProvider, Daemon.ProviderSetupError> {
        do {
            return .success(
                try Daemon.makeProvider(
                    configuration, loop: loop, environment: { $0 == "CREDENTIALS_DIRECTORY" ? credentials : nil }))
        } catch {
            return .failure(error)
        }
    }

    static func message(_ result: Result<any WeatherProvider, Daemon.ProviderSetupError>) -> String? {
        if case .failure(let error) = result { return error.description }
        return nil
    }

    @Test(arguments: [
        ("\(key)", key), ("  \(key)\r\n", key), ("\n\n\t\(key)\n", key), ("k", "k"), ("a+b/c=", "a+b/c="),
    ])
    func aKeyFileHoldsTheKeyAloneBlanksAroundIgnored(_ content: String, _ expected: String) throws {
        #expect(try APIKey.parse(Array(content.utf8)) == expected)
    }

    @Test(arguments: [
        ("", APIKey.Problem.empty), (" \n\t\r\n", .empty), ("\(key) \(key)", .severalWords),
        ("appid = \(key)", .severalWords), ("\(key)\n# my key\n", .severalWords), ("k\u{0}ey", .notText),
        ("kéy", .notText), (String(repeating: "k", count: 513), .tooLong),
    ])
    func otherContentIsRefused(_ content: String, _ problem: APIKey.Problem) {
        #expect(throws: problem) { try APIKey.parse(Array(content.utf8)) }
        #expect(!problem.description.contains(Self.key))
    }

    @Test func theKeyFileGivesTheProviderItsKeyAndSecrets() throws {
        let folder = try Self.directory(["owm.key": Array("\(Self.key)\n".utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try Self.configuration("APIKeyFile=\(folder.path)/owm.key\nLanguage=de")
        let provider = try Self.setUp(configuration, credentials: "/nonexistent").get()
        #expect(provider.name == "openweathermap")
        #expect(provider.secrets.redact("appid=\(Self.key)") == "appid=REDACTED")
        // The sea state comes from Open-Meteo's Marine API whatever the provider.
        let marine = try #require(provider as? MarineWeatherProvider)
        #expect(marine.marine.baseURL == "https://marine-api.open-meteo.com")
        let converting = try #require(marine.base as? UnitConvertingProvider)
        #expect(converting.preferences == configuration.weather.unitPreferences)
        let owm = try #require(converting.base as? OpenWeatherMapProvider)
        #expect(owm.baseURL == "https://api.openweathermap.org" && owm.language == "de")
        #expect(owm.currentURL(for: Coordinate(latitude: 1, longitude: 2)).hasSuffix("&appid=\(Self.key)"))
    }

    @Test func systemdsCredentialServesWithoutAKeyFile() throws {
        let folder = try Self.directory(["openweathermap": Array(Self.key.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = try Self.setUp(try Self.configuration(""), credentials: folder.path).get()
        #expect(provider.secrets.redact(Self.key) == "REDACTED")
    }

    @Test func withoutAKeyTheDaemonDoesNotStartAndSaysWhereToPutIt() throws {
        for credentials in [nil, ""] {
            let message = try #require(Self.message(Self.setUp(try Self.configuration(""), credentials: credentials)))
            #expect(message.contains("Provider=openweathermap needs an API key"))
            #expect(message.contains("APIKeyFile=") && message.contains("LoadCredential=openweathermap:"))
        }
    }

    @Test func aMissingEmptyOrUnreadableKeyFileIsNamed() throws {
        let folder = try Self.directory([
            "empty": [], "two": Array("\(Self.key)\nsecond \(Self.key)\n".utf8),
            "big": Array(repeating: 65, count: 5000),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, String)] = [
            (
                "\(folder.path)/missing",
                "cannot read the API key of Provider=openweathermap from APIKeyFile=\(folder.path)/missing: No such file or directory"
            ),
            (
                "\(folder.path)/empty",
                "the API key file of Provider=openweathermap, APIKeyFile=\(folder.path)/empty, is empty"
            ),
            ("\(folder.path)/two", "APIKeyFile=\(folder.path)/two, holds more than one word"),
            ("\(folder.path)/big", "APIKeyFile=\(folder.path)/big: larger than 4096 bytes"),
            (folder.path, "APIKeyFile=\(folder.path): Is a directory"),
        ]
        for (path, expected) in cases {
            let message = try #require(Self.message(Self.setUp(try Self.configuration("APIKeyFile=\(path)"))))
            #expect(message.contains(expected), "\(message)")
            #expect(!message.contains(Self.key))
        }
        let credential = try #require(Self.message(Self.setUp(try Self.configuration(""), credentials: folder.path)))
        #expect(
            credential.contains(
                "the credential \(folder.path)/openweathermap (LoadCredential=; wundercast.service loads /etc/credstore/openweathermap)"
            ), "\(credential)")
    }

    @Test func openMeteoAndMetNorwayNeedNoKey() throws {
        let openMeteo = try Self.setUp(Configuration()).get()
        #expect(openMeteo.name == "open-meteo" && openMeteo.secrets.isEmpty)
        let configuration = try Configuration.parse(
            "[Weather]\nProvider=metno\nContact=ops@example.org\nWindSpeedUnit=kn")
        let metno = try Self.setUp(configuration, credentials: "/nonexistent").get()
        #expect(metno.name == "metno" && metno.secrets.isEmpty)
        let converting = try #require((metno as? MarineWeatherProvider)?.base as? UnitConvertingProvider)
        #expect(converting.preferences == configuration.weather.unitPreferences)
        let base = try #require(converting.base as? MetNorwayProvider)
        #expect(base.baseURL == "https://api.met.no")
    }

    /// `MarineURL=` follows `URL=` of Open-Meteo (a mirror or test server serves both), not another
    /// provider's; `Marine=no` leaves the provider alone.
    @Test func theMarineBaseFollowsOpenMeteosURL() throws {
        func marine(_ text: String) throws -> MarineWeatherProvider? {
            try Self.setUp(try Configuration.parse("[Weather]\n" + text), credentials: "/nonexistent").get()
                as? MarineWeatherProvider
        }
        #expect(try marine("URL=http://127.0.0.1:8080")?.marine.baseURL == "http://127.0.0.1:8080")
        #expect(
            try marine("URL=http://127.0.0.1:8080\nMarineURL=http://127.0.0.1:9090")?.marine.baseURL
                == "http://127.0.0.1:9090")
        #expect(
            try marine("Provider=metno\nContact=ops@example.org\nURL=http://127.0.0.1:8080")?.marine.baseURL
                == "https://marine-api.open-meteo.com")
        #expect(try marine("Marine=no") == nil)
        #expect(try marine("Marine=yes")?.marine.units == .metric)
    }
}
