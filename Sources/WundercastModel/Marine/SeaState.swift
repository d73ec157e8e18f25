#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The sea where the position is, from Open-Meteo's Marine API (`weather.marine` in the state;
/// docs/PROTOCOL.md). Every value is the API's `current` block (its 15-minute value) for the
/// grid cell that answered (an answer with `hourly` values only: the hour that holds now); a
/// value the API gave as `null` (a model without it, land) is absent, never invented. Directions are degrees clockwise from north: waves and swell come **from**
/// them, the current flows **towards** its direction (the API's conventions).
public struct SeaState: Sendable, Equatable, Codable {
    /// The unit of each quantity, as published.
    public struct Units: Sendable, Equatable, Codable {
        /// Wave, wind-wave and swell heights: `"m"` or `"ft"` (following `PrecipitationUnit=`:
        /// inches give feet), the unit asked for; the answer's `current_units.wave_height`
        /// names the unit its values are converted from.
        public var height: String
        /// Periods: `"s"`.
        public var period: String
        /// Directions: `"°"`.
        public var direction: String
        /// Sea-surface temperature: `"°C"` or `"°F"` (`TemperatureUnit=`; kelvin as °C).
        public var seaTemperature: String
        /// Current velocity: `"kn"` when `WindSpeedUnit=` is `kn` or `bft`, else `"km/h"`.
        public var currentVelocity: String

        public init(
            height: String = "m", period: String = "s", direction: String = "°", seaTemperature: String = "°C",
            currentVelocity: String = "km/h"
        ) {
            self.height = height
            self.period = period
            self.direction = direction
            self.seaTemperature = seaTemperature
            self.currentVelocity = currentVelocity
        }
    }

    /// The 0.25° cell the sea state was asked for (``MarineCell``), by its centre: never finer
    /// than that, whatever position asked.
    public struct Cell: Sendable, Equatable, Codable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The source's name: ``openMeteoMarine`` whatever `Provider=` is.
    public var source: String
    public var cell: Cell
    /// The time of the values (UTC). Source: `current.time`.
    public var time: Date?
    /// Significant height of all waves, in ``Units/height``. Source: `current.wave_height`.
    public var waveHeight: Double?
    /// Mean direction waves come from, °. Source: `current.wave_direction`.
    public var waveDirection: Double?
    /// Mean wave period, s. Source: `current.wave_period`.
    public var wavePeriod: Double?
    /// Wind-wave height, direction and period. Source: `current.wind_wave_height`, `_direction`, `_period`.
    public var windWaveHeight: Double?
    public var windWaveDirection: Double?
    public var windWavePeriod: Double?
    /// Swell height, direction and period. Source: `current.swell_wave_height`, `_direction`, `_period`.
    public var swellHeight: Double?
    public var swellDirection: Double?
    public var swellPeriod: Double?
    /// Sea-surface temperature in ``Units/seaTemperature``. Source: `current.sea_surface_temperature`.
    public var seaTemperature: Double?
    /// Ocean current velocity in ``Units/currentVelocity``, direction it flows towards in °.
    /// Source: `current.ocean_current_velocity` (asked in km/h), `current.ocean_current_direction`.
    public var currentVelocity: Double?
    public var currentDirection: Double?
    public var units: Units

    /// `"open-meteo-marine"`.
    public static let openMeteoMarine = "open-meteo-marine"

    public init(source: String = SeaState.openMeteoMarine, cell: Cell, time: Date? = nil, units: Units = Units()) {
        self.source = source
        self.cell = cell
        self.time = time
        self.units = units
    }

    /// Whether the answer held no value at all: the API's answer over land (every value `null`).
    public var isEmpty: Bool {
        [
            waveHeight, waveDirection, wavePeriod, windWaveHeight, windWaveDirection, windWavePeriod, swellHeight,
            swellDirection, swellPeriod, seaTemperature, currentVelocity, currentDirection,
        ].allSatisfy { $0 == nil }
    }
}

/// `[Weather] Marine=`: when the Marine API is asked for the sea state.
public enum MarineMode: String, Sendable, Equatable, CaseIterable {
    /// Once per 0.25° cell the position enters; a cell that answered all `null` (land) is not
    /// asked again for a day, a sea cell again at each refresh while the position stays in it.
    case auto
    /// At every refresh, land or sea.
    case yes
    /// Never.
    case no
}
