import Foundation

/// The positions in an NMEA 0183 log, read independently of gpsd and libgps, so tests can
/// compute what a replay through `gpsfake` must produce.
///
/// Positions come in file order from RMC and GLL sentences with status `A` and GGA sentences
/// with fix quality > 0 (gpsd reports a position for each of the three), of any talker (`GP`, `GN`, `GL`, ...). A sentence counts only when its
/// `*hh` checksum is present and right; comments (`#`), truncated and corrupt lines are
/// skipped. Consecutive identical positions (the RMC and GGA of one epoch) are collapsed.
public struct NMEATrack {
    /// Degrees north and east (WGS 84), in file order.
    public var positions: [(latitude: Double, longitude: Double)]

    public init(positions: [(latitude: Double, longitude: Double)]) {
        self.positions = positions
    }

    /// Reads the log at `url` (bytes that are not UTF-8 are skipped with their line).
    public static func load(_ url: URL) throws -> NMEATrack {
        let data = try Data(contentsOf: url)
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// Reads NMEA text: one sentence per line, `\n` or `\r\n`.
    public static func parse(_ text: String) -> NMEATrack {
        var positions: [(latitude: Double, longitude: Double)] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {  // "\r\n" is one Character
            guard let fields = checkedFields(Substring(rawLine)), let position = position(fields) else { continue }
            if let last = positions.last, last.latitude == position.latitude, last.longitude == position.longitude {
                continue
            }
            positions.append(position)
        }
        return NMEATrack(positions: positions)
    }

    /// The smallest box holding every position, in degrees; `nil` for an empty track.
    public var boundingBox: (minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double)? {
        guard let first = positions.first else { return nil }
        var box = (
            minLatitude: first.latitude, maxLatitude: first.latitude, minLongitude: first.longitude,
            maxLongitude: first.longitude
        )
        for p in positions.dropFirst() {
            box.minLatitude = min(box.minLatitude, p.latitude)
            box.maxLatitude = max(box.maxLatitude, p.latitude)
            box.minLongitude = min(box.minLongitude, p.longitude)
            box.maxLongitude = max(box.maxLongitude, p.longitude)
        }
        return box
    }

    /// Great-circle distance in metres between two positions in degrees (haversine, mean
    /// Earth radius 6,371,008.8 m).
    public static func haversine(
        _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
    ) -> Double {
        let radius = 6_371_008.8
        let φ1 = latitude1 * .pi / 180
        let φ2 = latitude2 * .pi / 180
        let Δφ = (latitude2 - latitude1) * .pi / 180
        let Δλ = (longitude2 - longitude1) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * radius * asin(min(1, h.squareRoot()))
    }

    /// ``haversine(_:_:_:_:)`` for two elements of ``positions``.
    public static func haversine(
        _ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)
    ) -> Double {
        haversine(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    // MARK: - Parsing

    /// The comma-separated fields of `$<body>*hh` when the checksum (XOR of the body's
    /// bytes) matches; `nil` for anything else.
    static func checkedFields(_ line: Substring) -> [Substring]? {
        let line = line.drop(while: { $0 == " " || $0 == "\t" })
        guard line.first == "$", let star = line.lastIndex(of: "*") else { return nil }
        let body = line[line.index(after: line.startIndex)..<star]
        let hex = line[line.index(after: star)...].prefix(while: { !$0.isWhitespace })
        guard hex.count == 2, let expected = UInt8(hex, radix: 16) else { return nil }
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        guard sum == expected else { return nil }
        return body.split(separator: ",", omittingEmptySubsequences: false)
    }

    /// The position of a valid RMC, GLL or GGA sentence, else `nil`.
    static func position(_ fields: [Substring]) -> (latitude: Double, longitude: Double)? {
        guard let address = fields.first, address.count == 5 else { return nil }
        switch address.suffix(3) {
        case "RMC":
            // $xxRMC,time,status,lat,N/S,lon,E/W,...
            guard fields.count >= 7, fields[2] == "A" else { return nil }
            return coordinates(fields[3], fields[4], fields[5], fields[6])
        case "GLL":
            // $xxGLL,lat,N/S,lon,E/W,time,status[,mode]
            guard fields.count >= 7, fields[6] == "A" else { return nil }
            if fields.count >= 8, fields[7] == "N" { return nil }
            return coordinates(fields[1], fields[2], fields[3], fields[4])
        case "GGA":
            // $xxGGA,time,lat,N/S,lon,E/W,quality,...
            guard fields.count >= 7, let quality = Int(fields[6]), quality > 0 else { return nil }
            return coordinates(fields[2], fields[3], fields[4], fields[5])
        default:
            return nil
        }
    }

    private static func coordinates(
        _ lat: Substring, _ ns: Substring, _ lon: Substring, _ ew: Substring
    ) -> (latitude: Double, longitude: Double)? {
        guard let latitude = degrees(lat, degreeDigits: 2), let longitude = degrees(lon, degreeDigits: 3) else {
            return nil
        }
        let signedLatitude: Double
        switch ns {
        case "N": signedLatitude = latitude
        case "S": signedLatitude = -latitude
        default: return nil
        }
        let signedLongitude: Double
        switch ew {
        case "E": signedLongitude = longitude
        case "W": signedLongitude = -longitude
        default: return nil
        }
        guard abs(signedLatitude) <= 90, abs(signedLongitude) <= 180 else { return nil }
        return (signedLatitude, signedLongitude)
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) to decimal degrees.
    private static func degrees(_ text: Substring, degreeDigits: Int) -> Double? {
        guard text.count > degreeDigits + 1, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let whole = Double(text.prefix(degreeDigits)), let minutes = Double(text.dropFirst(degreeDigits)),
            minutes < 60
        else { return nil }
        return whole + minutes / 60
    }
}
