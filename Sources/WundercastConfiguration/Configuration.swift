#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel
import WundercastProviders

/// The daemon's settings, read from a systemd-style INI file (`wundercastd --config PATH`).
/// Every key has a default; see `etc/wundercast.conf` for the commented sample.
public struct Configuration: Sendable, Equatable {
    /// `[Location]`
    public struct Location: Sendable, Equatable {
        /// `Authorization=` always | when-in-use | denied | ask. Default `always`.
        public var authorization: AuthorizationStatus = .authorizedAlways
        /// `GPSD=` host:port of gpsd's JSON protocol. Default `127.0.0.1:2947`
        /// (not `localhost`, which resolves to ::1 first; PITFALLS).
        public var gpsdHost: String = "127.0.0.1"
        public var gpsdPort: Int = 2947
        /// `MaxHorizontalError=` in metres: fixes with a larger `eph` are ignored. Default 100 m.
        public var maxHorizontalError: Double = 100
        /// `MaxFixAge=` time span: a position whose newest fix is older is only the last known
        /// one, never `fresh`. Default 2min; at least 1s.
        public var maxFixAge: Duration = .seconds(120)
        /// `Fallback=` the place used when authorization is `denied`: `LAT,LON` in degrees, or a
        /// place name resolved at start-up (on the machine first, see `[Places]`). Default none.
        public var fallback: FallbackPlace? = nil
        public init() {}
    }

    /// `[Throttle]`
    public struct Throttle: Sendable, Equatable {
        /// `MinInterval=` time span; never two fetches closer than this. Default 2min; at least 1s.
        public var minInterval: Duration = .seconds(120)
        /// `MinDistance=` distance in metres from the last fetched position. Default 1km.
        public var minDistance: Double = 1000
        /// `MaxAge=` time span; refresh this often while stationary. Default 15min; at least 1s and
        /// at least `MinInterval`.
        public var maxAge: Duration = .seconds(900)
        public init() {}
    }

    /// `[Weather]`
    public struct WeatherSettings: Sendable, Equatable {
        /// `Provider=` open-meteo | openweathermap | metno. Default `open-meteo`.
        public var provider: WeatherProviderID = .openMeteo
        /// `URL=` base URL of the provider's API; `nil` (unset or empty): the provider's own
        /// (``WeatherProviderID/defaultURL``, `https://api.open-meteo.com` for the default provider).
        public var url: String? = nil
        /// `Contact=` an e-mail address or URL sent in the User-Agent to providers that ask for one
        /// (MET Norway: required with `Provider=metno`). Default none.
        public var contact: String? = nil
        /// `Units=` metric (°C, km/h, hPa, mm) | imperial (°F, mph, inHg, in). Default `metric`.
        public var units: UnitSystem = .metric
        /// `TemperatureUnit=` celsius | fahrenheit; `WindSpeedUnit=` kmh | ms | mph | kn | bft;
        /// `PressureUnit=` hPa | inHg | mmHg; `PrecipitationUnit=` mm | inch: each overrides
        /// `Units=` for its quantity. Default none (empty): follow `Units=`. See ``unitPreferences``.
        public var temperatureUnit: TemperatureUnit? = nil
        public var windSpeedUnit: WindSpeedUnit? = nil
        public var pressureUnit: PressureUnit? = nil
        public var precipitationUnit: PrecipitationUnit? = nil
        /// `Precision=` decimals of latitude/longitude sent to the provider, 0–4. Default 2 (≈1.1 km).
        public var precision: Int = 2
        /// `Timeout=` total time span of one HTTP request. Default 10s.
        public var timeout: Duration = .seconds(10)
        /// `Cell=` land | sea | nearest: which grid cell of Open-Meteo's model answers for the
        /// position (`cell_selection`; `sea` for boats). Default `land`.
        public var cell: CellSelection = .land
        /// `Days=` local days of the forecast published (`weather.forecast.days`), 1–7: each
        /// provider gives as many as it reaches (Open-Meteo 7, MET Norway about 9, OpenWeatherMap's
        /// free forecast 5). Default 3.
        public var days: Int = Forecast.defaultDays
        /// `Marine=` auto | yes | no: when Open-Meteo's Marine API is asked for the sea state
        /// (``MarineMode``). Default `auto`.
        public var marine: MarineMode = .auto
        /// `MarineURL=` base URL of the Marine API; `nil` (unset or empty): ``marineBaseURL``.
        public var marineURL: String? = nil
        /// `APIKeyFile=` absolute path of a file holding the provider's API key (OpenWeatherMap),
        /// read at start-up. Default none: systemd's `$CREDENTIALS_DIRECTORY/openweathermap`
        /// (`LoadCredential=`). A key is never written in this file itself.
        public var apiKeyFile: String? = nil
        /// `Language=` language of the provider's condition texts (OpenWeatherMap `lang`), one of
        /// ``OpenWeatherMapLanguage/codes``, lower case. Default none: OpenWeatherMap is asked
        /// in English (`lang=en`) and readers name the condition in their own language from its
        /// id; set, its texts are shown as they come (`weather.conditionLanguage`).
        public var language: String? = nil
        public init() {}

        /// The base URL of the Marine API: `MarineURL=`, else `URL=` when the provider is
        /// Open-Meteo (a mirror or test server of one serves both), else
        /// `https://marine-api.open-meteo.com`.
        public var marineBaseURL: String {
            marineURL ?? (provider == .openMeteo ? url : nil) ?? OpenMeteoMarineProvider.defaultURL
        }

        /// The base URL requests go to: `URL=`, else the provider's own.
        public var baseURL: String { url ?? provider.defaultURL }
    }

    /// `[Socket]`
    public struct Socket: Sendable, Equatable {
        /// `Path=` of the Unix stream socket. Default `/run/wundercast/wundercast.sock`.
        public var path: String = "/run/wundercast/wundercast.sock"
        /// `Mode=` octal permission bits the daemon gives the socket it binds. Default 0666:
        /// weather is for every local user (precise positions are not: `PreciseGroup=`).
        public var mode: UInt32 = 0o666
        /// `PreciseGroup=` group whose members (besides root and the daemon's own user) get
        /// precise positions and may `authorize` and `refresh`. Default `wundercast`; empty: none.
        public var preciseGroup: String = "wundercast"
        /// `PublicPrecision=` decimals of latitude/longitude other readers get, 0–4. Default 1 (≈11 km).
        public var publicPrecision: Int = 1
        /// `MaxClients=` connections served at once; more are refused with an error. Default 256.
        public var maxClients: Int = 256
        /// `IdleTimeout=` time span a connection may stay without sending its first request. Default 10s.
        public var idleTimeout: Duration = .seconds(10)
        /// `SendTimeout=` time span a client may leave an answer unread before it is
        /// disconnected. Default 1min.
        public var sendTimeout: Duration = .seconds(60)
        /// `LookupsPerMinute=` one-off lookups (`weather`, `around`: a cell counts as one) per
        /// client user and minute that may reach the provider. Default 60.
        public var lookupsPerMinute: Int = 60
        public init() {}
    }

    /// `[Places]`
    public struct Places: Sendable, Equatable {
        /// `OnlineGeocoding=` yes | no: names the city table does not know are looked up with
        /// Open-Meteo's geocoding API. Default yes.
        public var onlineGeocoding: Bool = true
        /// `GeocodingURL=` base URL of the geocoding API. Default `https://geocoding-api.open-meteo.com`.
        public var geocodingURL: String = "https://geocoding-api.open-meteo.com"
        /// `Cities=` path of the city table (built from libgeonames by `make`, installed by
        /// `make install`). Default `/usr/local/share/wundercast/cities.bin`; empty: no place names.
        public var cities: String = "/usr/local/share/wundercast/cities.bin"
        public init() {}
    }

    public var location = Location()
    public var throttle = Throttle()
    public var weather = WeatherSettings()
    public var socket = Socket()
    public var places = Places()
    public var journal = Journal()
    public var cache = CacheSettings()
    public var mqtt = MQTTSettings()
    public var alerts = AlertsSettings()

    public init() {}
}

/// The place used when the GPS may not be used (`Fallback=`).
public enum FallbackPlace: Sendable, Equatable {
    /// `LAT,LON` in decimal degrees.
    case coordinate(Coordinate)
    /// A place name, resolved by the daemon at start-up (city table first, then online
    /// geocoding when allowed). While unresolved, the state says why (`noLocation`).
    case name(String)
    /// A name the daemon resolved: shown as `location.name`, fetched at the coordinate.
    case resolved(name: String, Coordinate)

    /// Where to fetch, once known.
    public var coordinate: Coordinate? {
        switch self {
        case .coordinate(let c), .resolved(_, let c): c
        case .name: nil
        }
    }
}

/// A configuration error: `file:line: what is wrong`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path as given (or `<string>`).
    public var file: String
    /// 1-based line number; 0 when the error is not tied to a line (unreadable file).
    public var line: Int
    /// What is wrong, naming the key and the value.
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
