import Testing
import WundercastConfiguration

/// `Provider=metno`, `Contact=` and the provider's own base URL when `URL=` is not set.
@Suite struct MetNorwayConfigurationTests {
    static func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try Configuration.parse(text, file: "t.conf")
            return nil
        } catch {
            return error
        }
    }

    @Test func metnoWithAContactAndItsOwnURL() throws {
        let c = try Configuration.parse("[Weather]\nProvider=metno\nContact=ops@example.org\n")
        #expect(c.weather.provider == .metNorway && c.weather.contact == "ops@example.org")
        #expect(c.weather.url == nil && c.weather.baseURL == "https://api.met.no")
        #expect(Configuration().weather.baseURL == "https://api.open-meteo.com")
        let mirror = try Configuration.parse(
            "[Weather]\nContact=https://example.org/about\nProvider=metno\nURL=http://127.0.0.1:8080/\n")
        #expect(mirror.weather.baseURL == "http://127.0.0.1:8080")
        #expect(try Configuration.parse("[Weather]\nURL=http://a.example\nURL=\n").weather.url == nil)
        #expect(try Configuration.parse("[Weather]\nContact=a@b\nContact=\n").weather.contact == nil)
    }

    /// The refusal names the key and is reported at the `Provider=` line.
    @Test func metnoWithoutAContactIsRefused() {
        let refusal = Self.error("[Weather]\nUnits=metric\nProvider=metno\nContact=\n")
        #expect(refusal?.line == 3)
        #expect(
            refusal?.message.hasPrefix("Provider=metno needs [Weather] Contact= (an e-mail address or URL)") == true)
        #expect(Self.error("[Weather]\nContact=ops@example.org\n") == nil, "a contact alone is fine")
    }

    @Test(arguments: [
        "ops at example", "ops@example.org (me)", "a@b\u{1B}[2J", "ops@exämple.org", "a b@c",
        "ftp://example.org", "\"ops\"@example.org", String(repeating: "a", count: 129) + "@b",
    ])
    func contactsThatCannotBeSentAreRefused(_ value: String) {
        let refusal = Self.error("[Weather]\nContact=\(value)\n")
        #expect(refusal?.line == 2)
        #expect(refusal?.message.hasPrefix("Contact=") == true, "\(String(describing: refusal))")
    }
}
