import WundercastCore
import WundercastHTTP
import WundercastPOSIX

extension Daemon {
    /// Why the provider `Provider=` names cannot be used: the daemon does not start.
    struct ProviderSetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// The provider `[Weather] Provider=` names, with its HTTP client: the one place that
    /// chooses among providers. A provider with a key gets it from ``apiKey(_:environment:read:)``,
    /// and its client redacts it (``Secrets``).
    ///
    /// - Throws: ``ProviderSetupError`` when a key is missing, unreadable or not a key, or the
    ///   provider is not part of this build.
    static func makeProvider(
        _ configuration: Configuration, environment: (String) -> String? = Environment.value,
        read: (String, Int) throws(WholeFile.ReadError) -> [UInt8] = { path, limit throws(WholeFile.ReadError) in
            try WholeFile.read(path: path, limit: limit)
        }
    ) throws(ProviderSetupError) -> any WeatherProvider {
        let weather = configuration.weather
        func http(_ secrets: Secrets) -> CurlHTTPClient {
            CurlHTTPClient(
                userAgent: Wundercast.userAgent, connectTimeout: min(Duration.seconds(5), weather.timeout),
                timeout: weather.timeout, secrets: secrets)
        }
        switch weather.provider {
        case .openMeteo:
            return OpenMeteoProvider(
                baseURL: weather.baseURL, units: weather.unitPreferences, cell: weather.cell, http: http(.none))
        case .openWeatherMap:
            let key = try apiKey(weather, environment: environment, read: read)
            return UnitConvertingProvider(
                OpenWeatherMapProvider(
                    baseURL: weather.baseURL, apiKey: key, units: weather.units, language: weather.language,
                    http: http(Secrets([key]))),
                to: weather.unitPreferences)
        case .metNorway:
            throw ProviderSetupError(
                description: "Provider=metno is not built yet in this version of wundercastd; "
                    + "choose open-meteo (no key) or openweathermap in [Weather]")
        }
    }

    /// The name of the key under systemd's `LoadCredential=NAME:PATH`.
    static let credentialName = "openweathermap"

    /// The API key: from `APIKeyFile=`, else from `$CREDENTIALS_DIRECTORY/openweathermap`
    /// (systemd's `LoadCredential=openweathermap:PATH`). The file is read whole (at most
    /// ``APIKey/maxFileSize`` bytes) and must hold the key alone (``APIKey/parse(_:)``).
    /// Errors name the file and what is wrong with it, never its content.
    static func apiKey(
        _ weather: Configuration.WeatherSettings, environment: (String) -> String?,
        read: (String, Int) throws(WholeFile.ReadError) -> [UInt8]
    ) throws(ProviderSetupError) -> String {
        let provider = weather.provider.rawValue
        let path: String
        if let file = weather.apiKeyFile {
            path = file
        } else if let directory = environment("CREDENTIALS_DIRECTORY"), !directory.isEmpty {
            path = directory + "/" + credentialName
        } else {
            throw ProviderSetupError(
                description: "Provider=\(provider) needs an API key: put it alone in a file only the daemon can read "
                    + "and set [Weather] APIKeyFile=PATH, or run the service with LoadCredential=\(credentialName):PATH"
            )
        }
        let source =
            weather.apiKeyFile == nil
            ? "the credential \(path) (LoadCredential=; wundercast.service loads /etc/credstore/\(credentialName))"
            : "APIKeyFile=\(path)"
        let bytes: [UInt8]
        do {
            bytes = try read(path, APIKey.maxFileSize)
        } catch {
            throw ProviderSetupError(
                description: "cannot read the API key of Provider=\(provider) from \(source): \(error.reason)")
        }
        do {
            return try APIKey.parse(bytes)
        } catch {
            throw ProviderSetupError(description: "the API key file of Provider=\(provider), \(source), \(error)")
        }
    }
}
