#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastCore
import WundercastPOSIX

extension Daemon {
    /// The provider of `[Weather] Provider=`, at `URL=` (else its own base URL), over `http`.
    static func weatherProvider(
        _ configuration: Configuration, http: any HTTPClient, places: PlaceFinder, logger: Logger
    ) -> any WeatherProvider {
        let weather = configuration.weather
        switch weather.provider {
        case .openMeteo:
            return OpenMeteoProvider(baseURL: weather.baseURL, units: weather.units, cell: weather.cell, http: http)
        case .metNorway:
            // Configuration.parse refuses Provider=metno without Contact=.
            return MetNorwayProvider(
                baseURL: weather.baseURL, contact: weather.contact ?? "", units: weather.units, http: http,
                clock: ContinuousClock(), logger: logger, utcOffset: utcOffsetLookup(places))
        case .openWeatherMap:
            preconditionFailure("Provider=openweathermap is refused by Configuration.parse in this build")
        }
    }

    /// A place's offset from UTC at an instant: the time zone of the nearest city of the city
    /// table within ``timeZoneRadius``, read from /usr/share/zoneinfo; `nil` without one (then
    /// a provider that sends no offset publishes no today and tomorrow).
    static func utcOffsetLookup(_ places: PlaceFinder) -> MetNorwayProvider.UTCOffsetLookup {
        let zones = ZoneInfoDatabase { path, limit in try WholeFile.read(path: path, limit: limit) }
        return { coordinate in
            guard let place = places.nearest(coordinate, false), let name = place.timeZone,
                let distance = place.distance, distance <= timeZoneRadius, let zone = try? zones.zone(named: name)
            else { return nil }
            return { zone.offset(at: $0).utcOffset }
        }
    }

    /// How far the nearest city may be for its time zone to be the place's: 500 km.
    static let timeZoneRadius = 500_000
}
