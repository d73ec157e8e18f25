import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// The provider's two requests per fetch, their shape, and every failure of either answer
/// (issue 7, points 1 and 5), with a scripted HTTP client.
@Suite struct OpenWeatherMapProviderTests {
    static let key = "0123456789abcdef0123456789abcdef"
    static let zocca = Coordinate(latitude: 44.34, longitude: 10.99)

    static func ok(_ body: [UInt8], headers: [String: String] = [:]) -> Result<HTTPResponse, WeatherError> {
        .success(HTTPResponse(status: 200, headers: headers, body: body))
    }

    static func answer(
        _ status: Int, _ path: String, headers: [String: String] = [:]
    ) throws -> Result<
        HTTPResponse, WeatherError
    > {
        .success(HTTPResponse(status: status, headers: headers, body: try Fixtures.bytes(path)))
    }

    static func provider(
        _ http: ScriptedHTTPClient, units: UnitSystem = .metric, language: String = "en"
    ) -> OpenWeatherMapProvider {
        OpenWeatherMapProvider(
            baseURL: "https://api.example.org//", apiKey: key, units: units, language: language, http: http)
    }

    static func fetch(_ provider: OpenWeatherMapProvider) async -> Result<Weather, WeatherError> {
        do {
            return .success(try await provider.currentWeather(at: zocca))
        } catch {
            return .failure(error)
        }
    }

    static func forecast() throws -> [UInt8] {
        try OpenWeatherMapVariants.forecast(after: OpenWeatherMapVariants.zoccaTime, timezone: 7200)
    }

    @Test(arguments: [(UnitSystem.metric, "metric", "de"), (.imperial, "imperial", "pt_br")])
    func oneFetchIsTwoRequestsCurrentThenForecast(_ units: UnitSystem, _ asked: String, _ language: String) async throws
    {
        let http = ScriptedHTTPClient([
            Self.ok(try Fixtures.bytes(OpenWeatherMapVariants.weatherPath)), Self.ok(try Self.forecast()),
        ])
        let weather = try await Self.provider(http, units: units, language: language).currentWeather(at: Self.zocca)
        let query = "lat=44.34&lon=10.99&units=\(asked)&lang=\(language)"
        #expect(
            http.requests.map(\.url) == [
                "https://api.example.org/data/2.5/weather?\(query)&appid=\(Self.key)",
                "https://api.example.org/data/2.5/forecast?\(query)&cnt=32&appid=\(Self.key)",
            ])
        #expect(http.requests.allSatisfy { $0.headers["Accept"] == "application/json" })
        #expect(weather.openWeatherMapID == 501)
        #expect(weather.forecast?.hours?.count == 4)
        #expect(weather.units == WeatherUnits.requested(units))
    }

    @Test(arguments: [
        (44.0, 10.0, "lat=44&lon=10"), (-33.8688, 151.2093, "lat=-33.8688&lon=151.2093"),
        (0.1 + 0.2, -0.0, "lat=0.3&lon=0"),
    ])
    func coordinatesCarryNoMoreDecimalsThanGiven(_ latitude: Double, _ longitude: Double, _ expected: String) {
        let provider = Self.provider(ScriptedHTTPClient())
        let url = provider.currentURL(for: Coordinate(latitude: latitude, longitude: longitude))
        #expect(url.contains("?\(expected)&units="), "\(url)")
    }

    @Test func theKeyIsTheProvidersSecretAndPercentEncodedInTheURL() {
        let odd = OpenWeatherMapProvider(
            baseURL: "http://h", apiKey: "a+b/c=", units: .metric, http: ScriptedHTTPClient())
        #expect(odd.forecastURL(for: Self.zocca).hasSuffix("&appid=a%2Bb%2Fc%3D"))
        #expect(odd.secrets.redact(odd.forecastURL(for: Self.zocca)).hasSuffix("&appid=REDACTED"))
        #expect(Self.provider(ScriptedHTTPClient()).name == "openweathermap")
    }

    @Test func a401StopsBeforeTheForecastAndSaysToCheckTheKeyFile() async throws {
        let http = ScriptedHTTPClient([try Self.answer(401, "weather/openweathermap/error_401.json")])
        let result = await Self.fetch(Self.provider(http))
        #expect(http.requests.count == 1)
        guard case .failure(let error) = result else {
            Issue.record("a 401 gave weather")
            return
        }
        #expect(error.kind == .unauthorized && error.code == "http-401")
        #expect(error.message.contains("Invalid API key"))
        #expect(error.message.contains("APIKeyFile="))
    }

    @Test(arguments: [("120", 120.0), ("0", 0.0), ("soon", nil)])
    func a429CarriesRetryAfter(_ header: String, _ seconds: Double?) async throws {
        let http = ScriptedHTTPClient([
            try Self.answer(429, "weather/openweathermap/error_429.json", headers: ["retry-after": header])
        ])
        let result = await Self.fetch(Self.provider(http))
        guard case .failure(let error) = result else {
            Issue.record("a 429 gave weather")
            return
        }
        #expect(error.kind == .rateLimited && error.retryAfter == seconds)
        #expect(error.message.contains("temporary blocked"))
    }

    @Test func theClientsParsedRetryAfterWins() async throws {
        var response = try Self.answer(429, "weather/openweathermap/error_429.json").get()
        response.retryAfter = 3600  // an HTTP-date the client turned into seconds
        response.headers["retry-after"] = "Wed, 21 Oct 2015 07:28:00 GMT"
        let result = await Self.fetch(Self.provider(ScriptedHTTPClient([.success(response)])))
        #expect(result.failure?.retryAfter == 3600)
    }

    /// A failure of the second request fails the fetch with its own kind, so that its back-off
    /// applies; the state keeps the last good weather.
    @Test func aFailingForecastFailsTheFetch() async throws {
        let current = Self.ok(try Fixtures.bytes(OpenWeatherMapVariants.weatherPath))
        let cases: [(Result<HTTPResponse, WeatherError>, String)] = [
            (try Self.answer(429, "weather/openweathermap/error_429.json", headers: ["retry-after": "60"]), "http-429"),
            (.success(HTTPResponse(status: 503, headers: [:], body: [])), "http-503"),
            (Self.ok(Array(#"{"message":"","cod":"404"}"#.utf8)), "error-body"),
            (Self.ok(Array("<html/>".utf8)), "not-json"),
            (.failure(.transport(code: 28, message: "timed out")), "timeout"),
        ]
        for (answer, code) in cases {
            let http = ScriptedHTTPClient([current, answer])
            let result = await Self.fetch(Self.provider(http))
            #expect(result.failure?.code == code)
            #expect(http.requests.count == 2)
        }
    }

    /// The recorded cassette: HTTP 200 whose body is `{"message":"","cod":"404"}`.
    @Test func theRecordedHTTP200NotFoundIsAnErrorBody() async throws {
        let cassette = String(
            decoding: try Fixtures.bytes("weather/openweathermap/forecast_not_found_http200.vcr.yml"), as: UTF8.self)
        let lines = cassette.split(separator: "\n")
        let index = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "string: |" })
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "code: 200" })
        let body = Array(lines[index + 1].trimmingCharacters(in: .whitespaces).utf8)
        let http = ScriptedHTTPClient([Self.ok(try Fixtures.bytes(OpenWeatherMapVariants.weatherPath)), Self.ok(body)])
        let result = await Self.fetch(Self.provider(http))
        #expect(result.failure == .errorBody(status: 200, providerCode: "404", reason: nil))
    }

    @Test func theRecorded404IsAnHTTPErrorWithItsMessage() async throws {
        let http = ScriptedHTTPClient([try Self.answer(404, "weather/openweathermap/error_404.json")])
        let result = await Self.fetch(Self.provider(http))
        #expect(result.failure == .http(status: 404, reason: "city not found", retryAfter: nil))
    }

    @Test func aCancelledTaskAsksNothing() async throws {
        let http = ScriptedHTTPClient()
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Self.fetch(Self.provider(http))
        }.value
        #expect(result.failure == .cancelled)
        #expect(http.requests.isEmpty)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
