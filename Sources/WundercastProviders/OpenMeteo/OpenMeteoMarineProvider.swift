#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The sea state from Open-Meteo's Marine API, no key needed: one request
/// (`GET /v1/marine?current=…&cell_selection=sea`) per position, whatever the weather provider
/// is, through the same HTTP client (User-Agent, redirects, body cap) as the weather.
///
/// `cell_selection=sea` is stated, not left to the API's default: on the coast the API then
/// answers for the nearest sea cell within a few kilometres; farther inland every value comes
/// back `null` with HTTP 200 (a land cell, ``SeaState/isEmpty``).
///
/// Units asked: `length_unit` metric or imperial (``UnitPreferences/waveHeight``),
/// `temperature_unit` celsius or fahrenheit (``UnitPreferences/seaTemperature``),
/// `wind_speed_unit=kmh` for the current (the daemon converts to knots,
/// ``UnitPreferences/currentSpeed``). The answer's own unit strings decide the conversion.
public struct OpenMeteoMarineProvider: Sendable {
    /// `"open-meteo-marine"`: ``SeaState/source``.
    public var name: String { SeaState.openMeteoMarine }
    /// Base URL without a trailing slash, e.g. `https://marine-api.open-meteo.com`.
    public let baseURL: String
    public let units: UnitPreferences
    public let http: any HTTPClient

    /// Greatest distance of `current.time` from the present (3 hours, in seconds): a `current`
    /// block farther away is not the present sea state and is refused, not shown as current.
    public static let currentTolerance: TimeInterval = 3 * 3600

    /// The Marine API's own base URL.
    public static let defaultURL = "https://marine-api.open-meteo.com"

    /// The `current=` variables asked, in this order.
    public static let variables = [
        "wave_height", "wave_direction", "wave_period", "wind_wave_height", "wind_wave_direction", "wind_wave_period",
        "swell_wave_height", "swell_wave_direction", "swell_wave_period", "sea_surface_temperature",
        "ocean_current_velocity", "ocean_current_direction",
    ]

    public init(baseURL: String = Self.defaultURL, units: UnitPreferences, http: any HTTPClient) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.units = units
        self.http = http
    }

    /// `<base>/v1/marine?latitude=54.1&longitude=3.9&current=wave_height,…&cell_selection=sea&timeformat=unixtime&length_unit=metric&temperature_unit=celsius&wind_speed_unit=kmh`.
    public func requestURL(for coordinate: Coordinate) -> String {
        let latitude = Coordinate.text(coordinate.latitude, decimals: OpenMeteoProvider.maxCoordinateDecimals)
        let longitude = Coordinate.text(coordinate.longitude, decimals: OpenMeteoProvider.maxCoordinateDecimals)
        let length = units.waveHeight == .ft ? "imperial" : "metric"
        let temperature = units.seaTemperature == .fahrenheit ? "fahrenheit" : "celsius"
        return baseURL + "/v1/marine?latitude=\(latitude)&longitude=\(longitude)&current="
            + Self.variables.joined(separator: ",")
            + "&cell_selection=sea&timeformat=unixtime&length_unit=\(length)&temperature_unit=\(temperature)"
            + "&wind_speed_unit=kmh"
    }

    /// GETs ``requestURL(for:)`` and decodes the answer (``decode(status:body:requested:cell:now:contentType:)``)
    /// for the 0.25° cell of `coordinate`. Errors as ``OpenMeteoProvider/currentWeather(at:)``'s
    /// (with `Retry-After`); an empty sea state (land) is returned, not thrown.
    public func seaState(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> SeaState {
        if Task.isCancelled { throw .cancelled }
        let response = try await http.get(requestURL(for: coordinate), headers: ["Accept": "application/json"])
        let retryAfter =
            response.retryAfter
            ?? response.headers["retry-after"].flatMap(OpenMeteoProvider.retryAfterSeconds)
        do {
            return try Self.decode(
                status: response.status, body: response.body, requested: units, cell: MarineCell(coordinate),
                now: now, contentType: response.headers["content-type"])
        } catch .http(let status, let reason, _) {
            throw .http(status: status, reason: reason, retryAfter: retryAfter)
        } catch .limited(let status, let window, let reason, _) {
            throw .limited(status: status, window: window, reason: reason, retryAfter: retryAfter)
        }
    }

    /// Decodes a `/v1/marine` answer for `cell`, converted to `requested`
    /// (``UnitPreferences/waveHeight``, ``UnitPreferences/seaTemperature``, ``UnitPreferences/currentSpeed``).
    ///
    /// - Status, error bodies, limits and bodies that are not JSON throw as
    ///   ``OpenMeteoProvider/decode(status:body:requested:contentType:)`` does.
    /// - Values come from `current` (units from `current_units`), which throws
    ///   ``WeatherError/decoding(message:)`` when its `time` is missing or more than ``currentTolerance``
    ///   from `now`; an answer with `hourly` only (as some recorded ones are) gives the hour that
    ///   contains `now`, and throws when no hour does.
    /// - `null` values, and values beyond the plausible (``SeaState/plausibleHeight(_:)`` and its siblings,
    ///   checked in the answer's own units) or labelled with a unit that is not one of the
    ///   quantity, are left out. Every value `null` is land (an empty sea state); values present
    ///   but none kept throws ``WeatherError/decoding(message:)`` (nothing is learnt from it).
    /// - A member of the wrong type throws ``WeatherError/decoding(message:)`` naming it.
    public static func decode(
        status: Int, body: [UInt8], requested: UnitPreferences, cell: MarineCell, now: Date,
        contentType: String? = nil
    ) throws(WeatherError) -> SeaState {
        let parsed: Result<OpenMeteoBody, WeatherError> = OpenMeteoProvider.parse(
            body, status: status, contentType: contentType)
        let reason = (try? parsed.get())?.errorReason.map { UntrustedText.sanitized($0) }
        if let reason, let window = OpenMeteoProvider.limitWindow(reason) {
            throw .limited(status: status, window: window, reason: reason, retryAfter: nil)
        }
        guard (200..<300).contains(status) else { throw .http(status: status, reason: reason, retryAfter: nil) }
        let document = try parsed.get()
        if document.isError { throw .errorBody(status: status, providerCode: nil, reason: reason) }
        return try document.seaState(cell: cell, now: now, requested: requested)
    }
}
