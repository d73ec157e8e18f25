#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The last published weather as the daemon keeps it on disk across restarts (`[Cache] Path=`,
/// by default `$CACHE_DIRECTORY/state.json`): one JSON object, written by the daemon alone.
///
/// ```json
/// {"format":"wundercast-last-state","version":1,"provider":"open-meteo",
///  "fetchedAt":"2026-12-01T08:32:50Z","clockSynchronized":true,
///  "location":{"latitude":48.12,"longitude":11.57,"source":"gpsd"},
///  "weather":{…the WEATHER object's weather member…}}
/// ```
///
/// Decoding (``decode(_:)``) trusts nothing: a file that is not this format and version, or
/// holds a value out of range or text with control characters, is refused with the reason.
public struct LastState: Sendable, Equatable, Codable {
    /// The position the weather was fetched for, at `[Cache] Precision=` decimals.
    public struct Position: Sendable, Equatable, Codable {
        /// Degrees north (−90…90) and east (−180…180).
        public var latitude: Double
        public var longitude: Double
        /// `gpsd` or `fallback` (as `location.source` of the state); another is refused on reading.
        public var source: WeatherState.Location.Source
        /// The fallback place's configured name, when it has one.
        public var name: String?

        public init(latitude: Double, longitude: Double, source: WeatherState.Location.Source, name: String? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.source = source
            self.name = name
        }
    }

    /// The value of ``format``: what the file is.
    public static let formatName = "wundercast-last-state"
    /// The version this daemon writes and reads; another one is refused (and set aside).
    public static let currentVersion = 1
    /// The largest file read, in bytes (a state with a 12-hour forecast takes about 4 KiB).
    public static let sizeLimit = 1 << 20
    /// The longest text accepted in any member, in Unicode scalars.
    public static let textLimit = 200

    /// Always ``formatName``.
    public var format: String
    /// Always ``currentVersion`` when written by this daemon.
    public var version: Int
    /// The provider that answered (`[Weather] Provider=`); weather of another provider is not restored.
    public var provider: String
    /// When the weather was fetched (wall clock of the run that fetched it, whole seconds, UTC).
    public var fetchedAt: Date
    /// Whether that wall clock was known to be synchronised when the weather was fetched:
    /// only then can ``fetchedAt`` tell the weather's age after the restart.
    public var clockSynchronized: Bool
    /// The position the weather is for; absent when none may be kept (GPS not authorized).
    public var location: Position?
    /// The weather and its forecast as published.
    public var weather: Weather

    public init(
        provider: String, fetchedAt: Date, clockSynchronized: Bool, location: Position?, weather: Weather
    ) {
        format = Self.formatName
        version = Self.currentVersion
        self.provider = provider
        self.fetchedAt = Date(timeIntervalSince1970: fetchedAt.timeIntervalSince1970.rounded(.down))
        self.clockSynchronized = clockSynchronized
        self.location = location
        self.weather = weather
    }

    /// The file's bytes: the JSON object and a newline (sorted keys, ISO 8601 times).
    public func encoded() -> [UInt8] {
        // Encoding plain values cannot fail; an empty file would be refused when read.
        ((try? Self.encoder.encode(self)).map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }

    /// Reads a file's bytes.
    ///
    /// - Throws: ``LastStateError``: not JSON of this shape, another format or version, or a
    ///   value that no state the daemon publishes has.
    public static func decode(_ bytes: [UInt8]) throws(LastStateError) -> LastState {
        guard bytes.count <= sizeLimit else { throw .tooLarge(limit: sizeLimit) }
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: Data(bytes))
        } catch {
            throw .notJSON
        }
        guard header.format == formatName else { throw .otherFormat }
        guard header.version == currentVersion else { throw .unsupportedVersion(header.version ?? 0) }
        let state: LastState
        do {
            state = try decoder.decode(LastState.self, from: Data(bytes))
        } catch {
            throw .invalid("members missing or of the wrong type")
        }
        try state.validate()
        return state
    }

    /// The earliest ``fetchedAt`` accepted, 2000-01-01T00:00:00Z: an earlier one is a clock
    /// that was never set (or an edited file), and the file is refused.
    public static let earliestFetchedAt = Date(timeIntervalSince1970: 946_684_800)

    /// This state with its position rounded to `decimals` (a file written with a finer
    /// precision, or edited, is never shown finer than configured now).
    public func positionRounded(toDecimals decimals: Int) -> LastState {
        guard let location else { return self }
        let rounded = Coordinate(latitude: location.latitude, longitude: location.longitude)
            .rounded(toDecimals: decimals)
        var copy = self
        copy.location?.latitude = rounded.latitude
        copy.location?.longitude = rounded.longitude
        return copy
    }

    /// Checks what decoding cannot: ranges and texts.
    func validate() throws(LastStateError) {
        guard WeatherProviderID(rawValue: provider) != nil else { throw .invalid("unknown provider") }
        guard fetchedAt.timeIntervalSince1970.isFinite, fetchedAt >= Self.earliestFetchedAt else {
            throw .invalid("fetchedAt out of range")
        }
        if let location {
            guard location.latitude.isFinite, (-90...90).contains(location.latitude),
                location.longitude.isFinite, (-180...180).contains(location.longitude)
            else { throw .invalid("position out of range") }
            guard location.source == .gpsd || location.source == .fallback else {
                throw .invalid("unknown position source")
            }
        }
        guard weather.withoutImpossibleValues() == weather else { throw .invalid("weather values out of range") }
        for text in Self.texts(in: self) where !Self.isClean(text) {
            throw .invalid("text with control characters or over \(Self.textLimit) characters")
        }
    }

    /// Every `String` inside `value`, however deep (optionals, arrays and structures walked by reflection).
    static func texts(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        return Mirror(reflecting: value).children.flatMap { texts(in: $0.value) }
    }

    /// At most ``textLimit`` scalars and no control character (``UntrustedText/isControl(_:)``).
    static func isClean(_ text: String) -> Bool {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if count > textLimit || UntrustedText.isControl(scalar) { return false }
        }
        return true
    }

    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return e
    }()

    private static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()
}

/// Why a kept state file was refused (``LastState/decode(_:)``). The daemon sets the file
/// aside and logs this reason once.
public enum LastStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Larger than ``LastState/sizeLimit``.
    case tooLarge(limit: Int)
    /// Not a JSON object.
    case notJSON
    /// JSON, but not a wundercast state file.
    case otherFormat
    /// A format version this daemon does not read.
    case unsupportedVersion(Int)
    /// The right format and version with a bad member; the text says which kind.
    case invalid(String)

    /// e.g. `not JSON`, `format version 2 (this daemon reads 1)`, `position out of range`.
    public var description: String {
        switch self {
        case .tooLarge(let limit): "larger than \(limit) bytes"
        case .notJSON: "not a JSON object"
        case .otherFormat: "not a wundercast state file"
        case .unsupportedVersion(let version):
            "format version \(version) (this daemon reads \(LastState.currentVersion))"
        case .invalid(let what): what
        }
    }
}
