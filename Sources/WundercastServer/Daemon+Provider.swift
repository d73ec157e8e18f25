#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastAstronomy
import WundercastModel
import WundercastProviders
import WundercastConfiguration
import WundercastPipeline
import WundercastHTTP
import WundercastPOSIX

extension Daemon {
    /// Why the provider `Provider=` names cannot be used: the daemon does not start.
    struct ProviderSetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// The provider `[Weather] Provider=` names, with its HTTP client on `loop` (the reactor; libcurl's
    /// transfers run there): the one place that
    /// chooses among providers. A provider with a key gets it from ``apiKey(_:environment:read:)``,
    /// and redacts it from its answers itself (``Secrets``, ``RedactingHTTPClient``).
    ///
    /// - Parameters:
    ///   - places: the city table, whose nearest city gives MET Norway's place its time zone
    ///     (``utcOffsetLookup(_:)``).
    ///   - logger: where MET Norway logs its once-only warnings (a 203 "deprecated" answer).
    /// With `Marine=` auto or yes, the sea state of Open-Meteo's Marine API is added to its
    /// answers (``MarineWeatherProvider``, at `MarineURL=`).
    ///
    /// - Throws: ``ProviderSetupError`` when a key is missing, unreadable or not a key.
    static func makeProvider(
        _ configuration: Configuration, loop: EventLoop, places: PlaceFinder = .none, logger: Logger = .discard,
        environment: (String) -> String? = Environment.value,
        read: (String, Int) throws(WholeFile.ReadError) -> [UInt8] = { path, limit throws(WholeFile.ReadError) in
            try WholeFile.read(path: path, limit: limit)
        }
    ) throws(ProviderSetupError) -> any WeatherProvider {
        let base = try makeWeatherProvider(
            configuration, loop: loop, places: places, logger: logger, environment: environment, read: read)
        let weather = configuration.weather
        guard weather.marine != .no else { return base }
        // The sea state comes from Open-Meteo whatever the provider (``MarineWeatherProvider``).
        let marine = OpenMeteoMarineProvider(
            baseURL: weather.marineBaseURL, units: weather.unitPreferences,
            http: CurlHTTPClient(
                userAgent: Wundercast.userAgent, loop: loop, connectTimeout: min(Duration.seconds(5), weather.timeout),
                timeout: weather.timeout))
        return MarineWeatherProvider(base, marine: marine, mode: weather.marine, logger: logger)
    }

    /// The weather provider alone (``makeProvider(_:loop:places:logger:environment:read:)`` without the sea).
    private static func makeWeatherProvider(
        _ configuration: Configuration, loop: EventLoop, places: PlaceFinder, logger: Logger,
        environment: (String) -> String?, read: (String, Int) throws(WholeFile.ReadError) -> [UInt8]
    ) throws(ProviderSetupError) -> any WeatherProvider {
        let weather = configuration.weather
        func http() -> CurlHTTPClient {
            CurlHTTPClient(
                userAgent: Wundercast.userAgent, loop: loop, connectTimeout: min(Duration.seconds(5), weather.timeout),
                timeout: weather.timeout)
        }
        switch weather.provider {
        case .openMeteo:
            return OpenMeteoProvider(
                baseURL: weather.baseURL, units: weather.unitPreferences, cell: weather.cell, http: http(),
                days: weather.days)
        case .openWeatherMap:
            let key = try apiKey(weather, environment: environment, read: read)
            return UnitConvertingProvider(
                OpenWeatherMapProvider(
                    baseURL: weather.baseURL, apiKey: key, units: weather.units, language: weather.language,
                    http: http(), days: weather.days),
                to: weather.unitPreferences)
        case .metNorway:
            // Configuration.parse refuses Provider=metno without Contact=.
            return UnitConvertingProvider(
                MetNorwayProvider(
                    baseURL: weather.baseURL, contact: weather.contact ?? "", units: weather.units,
                    http: http(), clock: ContinuousClock(), logger: logger, utcOffset: utcOffsetLookup(places),
                    days: weather.days),
                to: weather.unitPreferences)
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

    /// The zone files of /usr/share/zoneinfo, read once each and kept (``ZoneInfoDatabase``):
    /// one for the daemon, whatever asks (the Moon, MET Norway's days).
    static let zones = ZoneInfoDatabase { path, limit in try WholeFile.read(path: path, limit: limit) }

    /// The time zone of a place: that of the nearest city of the city table within
    /// ``timeZoneRadius``, read from ``zones``; `nil` without one.
    static func zoneLookup(_ places: PlaceFinder) -> @Sendable (Coordinate) -> (name: String, zone: ZoneInfo)? {
        { coordinate in
            guard let place = places.nearest(coordinate), let name = place.timeZone,
                let distance = place.distance, distance <= timeZoneRadius, let zone = try? zones.zone(named: name)
            else { return nil }
            return (name, zone)
        }
    }

    /// A place's offset from UTC at an instant, in its time zone (``zoneLookup(_:)``); `nil`
    /// without one (then MET Norway's days follow the nautical time zone of the longitude).
    static func utcOffsetLookup(_ places: PlaceFinder) -> MetNorwayProvider.UTCOffsetLookup {
        let lookup = zoneLookup(places)
        return { coordinate in
            guard let zone = lookup(coordinate)?.zone else { return nil }
            return { zone.offset(at: $0).utcOffset }
        }
    }

    /// The Moon of the state's views (``MoonCalendar``) on the clock of the place's time zone
    /// (``zoneLookup(_:)``), else of the nautical zone of its longitude.
    static func moonCalendar(_ places: PlaceFinder) -> MoonCalendar {
        let lookup = zoneLookup(places)
        return MoonCalendar { coordinate in
            guard let found = lookup(coordinate) else { return nil }
            return (found.name, { found.zone.offset(at: $0).utcOffset })
        }
    }

    /// How far the nearest city may be for its time zone to be the place's: 500 km.
    static let timeZoneRadius = 500_000
}
