#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// A locationforecast 2.0 answer (GeoJSON `Feature`), read as far as the weather needs:
/// `properties.meta.units` and `properties.timeseries[]`, each step with its `time`,
/// `data.instant.details` and the period blocks `next_1_hours`, `next_6_hours`,
/// `next_12_hours` (`summary.symbol_code`, `details`). Other members (`geometry`,
/// `updated_at`, the complete product's extra details) are ignored.
///
/// - A missing or `null` block, summary, details or value is left out; `next_12_hours.details`
///   may be `{}`. A step whose `time` is `null` is skipped.
/// - Missing `properties` or `properties.timeseries`, a member of the wrong type, or a `time`
///   that is not `yyyy-MM-ddTHH:mm[:ss]Z` throws ``WeatherError/decoding(message:)`` naming
///   the member (e.g. `properties.timeseries[3].data.instant.details.air_temperature`).
struct MetNorwayBody {
    /// One period block: `next_1_hours`, `next_6_hours` or `next_12_hours`.
    struct Period {
        /// `summary.symbol_code` as sent (at most 64 characters, no control characters), or `nil`.
        var symbolCode: String?
        var details: [String: JSONValue]
    }

    /// One step of `timeseries`.
    struct Step {
        var time: Date
        /// `data.instant.details`.
        var instant: [String: JSONValue]
        /// `next_1_hours`, `next_6_hours`, `next_12_hours`, in this order (`nil` when absent).
        var periods: [Period?]
        /// The path of the step, for errors.
        var path: String

        /// The symbol of the nearest period block that has one (1 h, else 6 h, else 12 h).
        var symbolCode: String? { periods.lazy.compactMap { $0?.symbolCode }.first }

        /// The number `key` of `instant.details`.
        func instant(_ key: String) throws(WeatherError) -> Double? {
            try ProviderDecoding.number(instant[key], "\(path).data.instant.details.\(key)")
        }

        /// The number `key` of `next_1_hours.details`.
        func nextHour(_ key: String) throws(WeatherError) -> Double? {
            try ProviderDecoding.number(periods[0]?.details[key], "\(path).data.next_1_hours.details.\(key)")
        }
    }

    /// The period blocks read, nearest first.
    static let periodBlocks = ["next_1_hours", "next_6_hours", "next_12_hours"]

    /// `properties.meta.units` (`{}` when absent).
    var units: [String: JSONValue]
    /// The steps from 2000 to 2100 (``Weather/plausibleTimes``), one per time (the first
    /// given), oldest first.
    var steps: [Step]

    init(_ document: JSONValue) throws(WeatherError) {
        guard case .object(let root) = document else {
            throw .decoding(message: "body is \(document.kind), expected an object")
        }
        guard let properties = try ProviderDecoding.object(root["properties"], name: "properties") else {
            throw .decoding(message: "missing member 'properties'")
        }
        let meta = try ProviderDecoding.object(properties["meta"], name: "properties.meta")
        units = try ProviderDecoding.object(meta?["units"], name: "properties.meta.units") ?? [:]
        let series: [JSONValue]
        switch properties["timeseries"] {
        case .array(let entries)?: series = entries
        case nil, .null?: throw .decoding(message: "missing member 'properties.timeseries'")
        case let other?: throw .decoding(message: "properties.timeseries is \(other.kind), expected an array")
        }
        var steps: [Step] = []
        for (index, entry) in series.enumerated() {
            if let step = try Self.step(entry, path: "properties.timeseries[\(index)]") { steps.append(step) }
        }
        // A step outside the century (a clock never set) is no time of weather, and would be the
        // earliest: it is dropped, as a forecast hour at such a time is. A repeated time counts once.
        var seen = Set<Date>()
        self.steps = steps.filter { Weather.plausibleTimes.contains($0.time) && seen.insert($0.time).inserted }
            .sorted { $0.time < $1.time }
    }

    /// The unit met.no gives for `key` in `meta.units`, else the documented one.
    func unit(_ key: String) throws(WeatherError) -> String {
        try ProviderDecoding.unit(units, "properties.meta.units", key) ?? MetNorwayUnits.documented[key] ?? ""
    }

    private static func step(_ entry: JSONValue, path: String) throws(WeatherError) -> Step? {
        guard let members = try ProviderDecoding.object(entry, name: path) else { return nil }
        let time: Date
        switch members["time"] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let instant = instant(text) else {
                throw .decoding(message: "\(path).time is \"\(text)\", expected yyyy-MM-ddTHH:mm:ssZ")
            }
            time = instant
        case let other?: throw .decoding(message: "\(path).time is \(other.kind), expected a string")
        }
        let data = try ProviderDecoding.object(members["data"], name: "\(path).data") ?? [:]
        let instantBlock = try ProviderDecoding.object(data["instant"], name: "\(path).data.instant")
        let details = try ProviderDecoding.object(instantBlock?["details"], name: "\(path).data.instant.details")
        var periods: [Period?] = []
        for name in periodBlocks {
            let blockPath = "\(path).data.\(name)"
            guard let block = try ProviderDecoding.object(data[name], name: blockPath) else {
                periods.append(nil)
                continue
            }
            let summary = try ProviderDecoding.object(block["summary"], name: "\(blockPath).summary")
            var symbol: String?
            switch summary?["symbol_code"] {
            case nil, .null?: symbol = nil
            case .string(let text)?:
                let clean = UntrustedText.sanitized(text, limit: 64)
                symbol = clean.isEmpty ? nil : clean
            case let other?:
                throw .decoding(message: "\(blockPath).summary.symbol_code is \(other.kind), expected a string")
            }
            let blockDetails = try ProviderDecoding.object(block["details"], name: "\(blockPath).details") ?? [:]
            periods.append(Period(symbolCode: symbol, details: blockDetails))
        }
        return Step(time: time, instant: details ?? [:], periods: periods, path: path)
    }

    /// An instant in met.no's form, `2020-07-20T11:00:00Z` (also `+00:00` for `Z`, and
    /// without seconds: ``ISO8601Time/instant(_:variants:)``); `nil` for anything else, another
    /// offset included (met.no's times are UTC).
    static func instant(_ text: String) -> Date? {
        guard let time = ISO8601Time.instant(text, variants: .withoutSeconds), time.utcOffset == 0 else { return nil }
        return time.instant
    }

    /// Parses `body`: ``WeatherError/notJSON(status:bytes:contentType:)`` when it is not JSON.
    static func parse(_ body: [UInt8], status: Int, contentType: String?) throws(WeatherError) -> MetNorwayBody {
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            throw .notJSON(status: status, bytes: body.count, contentType: contentType)
        }
        return try MetNorwayBody(document)
    }
}
