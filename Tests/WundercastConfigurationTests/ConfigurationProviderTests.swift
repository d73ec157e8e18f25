import Testing
import WundercastModel
import WundercastConfiguration

/// `[Weather] Provider=`, `URL=` per provider, `APIKeyFile=`, `Language=`, and keys kept out of
/// the main configuration (issue 7, point 1).
@Suite struct ConfigurationProviderTests {
    static let key = "0123456789abcdef0123456789abcdef"

    private func parsed(_ text: String) throws -> Configuration.WeatherSettings {
        try Configuration.parse(text, file: "t.conf").weather
    }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try Configuration.parse(text, file: "t.conf")
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: WeatherProviderID.allCases)
    func everyProviderParsesAndHasItsOwnDefaultURL(_ provider: WeatherProviderID) throws {
        // Contact= is what MET Norway needs besides; the others ignore it.
        let weather = try parsed("[Weather]\nProvider=\(provider.rawValue)\nContact=ops@example.org")
        #expect(weather.provider == provider)
        #expect(weather.url == nil)
        #expect(weather.baseURL == provider.defaultURL)
        #expect(weather.baseURL.hasPrefix("https://"))
    }

    @Test func theDefaultsAreOpenMeteoEnglishAndNoKeyFile() {
        let weather = Configuration().weather
        #expect(weather.provider == .openMeteo)
        #expect(weather.baseURL == "https://api.open-meteo.com")
        #expect(weather.apiKeyFile == nil)
        #expect(weather.language == nil, "not chosen: asked in English, named by each reader in theirs")
    }

    @Test func aGivenURLWinsOverTheProvidersAndAnEmptyOneGoesBack() throws {
        let given = try parsed("[Weather]\nProvider=openweathermap\nURL=http://127.0.0.1:8080/")
        #expect(given.baseURL == "http://127.0.0.1:8080")
        let back = try parsed("[Weather]\nURL=http://127.0.0.1:8080\nURL=\nProvider=openweathermap")
        #expect(back.url == nil)
        #expect(back.baseURL == "https://api.openweathermap.org")
    }

    @Test func keyFileIsAnAbsolutePathOrNothing() throws {
        #expect(try parsed("[Weather]\nAPIKeyFile=/etc/wundercast/owm.key").apiKeyFile == "/etc/wundercast/owm.key")
        #expect(try parsed("[Weather]\nAPIKeyFile=/k\nAPIKeyFile=").apiKeyFile == nil)
        #expect(refusal("[Weather]\nAPIKeyFile=owm.key") == #"t.conf:2: APIKeyFile="owm.key" is not an absolute path"#)
    }

    @Test(arguments: [("de", "de"), ("DE", "de"), ("pt_BR", "pt_br"), ("zh_cn", "zh_cn"), ("ua", "ua")])
    func languagesAreOpenWeatherMapsCodesInLowerCase(_ given: String, _ expected: String) throws {
        #expect(try parsed("[Weather]\nLanguage=\(given)").language == expected)
    }

    @Test func anEmptyLanguageGoesBackToNone() throws {
        #expect(try parsed("[Weather]\nLanguage=de\nLanguage=").language == nil)
    }

    @Test(arguments: ["english", "xx", "de-DE", "pt-br", "en\u{1B}"])
    func otherLanguagesAreRefused(_ given: String) {
        let message = refusal("[Weather]\nLanguage=\(given)")
        #expect(message?.hasPrefix("t.conf:2: Language=") == true)
        #expect(message?.contains("is not a language code of OpenWeatherMap") == true, "\(String(describing: message))")
    }

    /// Keys do not belong in the main configuration: an `APIKey=`-like line is refused whatever
    /// it holds, and no refusal repeats a value that may be a key.
    @Test(arguments: [
        "[Weather]\nAPIKey=\(key)", "[Weather]\nappid=\(key)", "[Weather]\nApiKey = \"\(key)\"",
        "[Weather]\nKey=\(key)", "[Weather]\nAPIKeyFile=\(key)", "[Weather]\n\(key)", "[Weather]\nAPIKey=",
    ])
    func aKeyInTheMainConfigurationIsRefusedWithoutRepeatingIt(_ text: String) throws {
        let message = try #require(refusal(text))
        #expect(message.hasPrefix("t.conf:2: "))
        #expect(!message.contains(Self.key))
        #expect(!message.contains(String(Self.key.prefix(8))))
        #expect(message.contains("APIKeyFile="), "says what to do instead: \(message)")
    }

    @Test func aKeyLikeValueElsewhereIsStillQuotedWhenItIsNoSecret() {
        // Only values that may be keys lose their quotes: other errors still show what was read.
        #expect(
            refusal("[Weather]\nUnits=\(Self.key)")
                == "t.conf:2: Units=\"\(Self.key)\" is not one of: metric, imperial")
    }

    @Test(arguments: [
        ("0123456789abcdef0123456789abcdef", true), ("f4k3k3y0123456789abcdef01234567", true),
        ("wundercast-weather", false), ("/etc/wundercast/key", false), ("12345678901234567890", false),
        ("short1a", false),
    ])
    func whatLooksLikeAKey(_ text: String, _ looks: Bool) {
        let message = refusal("[Weather]\nAPIKeyFile=\(text)")
        let hidden = message?.contains("looks like an API key") == true
        #expect(hidden == looks, "\(String(describing: message))")
    }
}
