import WundercastSupport
import WundercastModel

extension ECCCAlerts {
    /// The area of one feature: a GeoJSON `Polygon` or `MultiPolygon`.
    enum Area: Equatable {
        case polygon(GeoPolygon)
        case multiPolygon(GeoMultiPolygon)

        /// Whether the area contains `point`, its edges included.
        func contains(_ point: Coordinate) -> Bool {
            switch self {
            case .polygon(let polygon): polygon.contains(point)
            case .multiPolygon(let multi): multi.contains(point)
            }
        }
    }

    /// The area of a feature's `geometry`; `nil` when it is missing, `null` or another type
    /// (`Point`, …: no area to be inside of). Coordinates that are not arrays of at least two
    /// numbers throw ``WeatherError/decoding(message:)`` naming the member.
    static func area(_ geometry: JSONValue?, path: String) throws(WeatherError) -> Area? {
        guard let members = try ProviderDecoding.object(geometry, name: path) else { return nil }
        let coordinates = members["coordinates"]
        let coordinatesPath = "\(path).coordinates"
        switch members["type"] {
        case .string("Polygon")?:
            let rings = try Self.rings(coordinates, coordinatesPath)
            return GeoPolygon(geoJSON: rings).map(Area.polygon)
        case .string("MultiPolygon")?:
            let polygons = try array(coordinates, coordinatesPath)
            var all: [[[[Double]]]] = []
            for (index, polygon) in polygons.enumerated() {
                all.append(try Self.rings(polygon, "\(coordinatesPath)[\(index)]"))
            }
            return GeoMultiPolygon(geoJSON: all).map(Area.multiPolygon)
        default:
            return nil
        }
    }

    private static func rings(_ value: JSONValue?, _ path: String) throws(WeatherError) -> [[[Double]]] {
        var rings: [[[Double]]] = []
        for (r, ring) in try array(value, path).enumerated() {
            var positions: [[Double]] = []
            for (i, position) in try array(ring, "\(path)[\(r)]").enumerated() {
                let positionPath = "\(path)[\(r)][\(i)]"
                var numbers: [Double] = []
                for (n, number) in try array(position, positionPath).enumerated() {
                    guard let value = try ProviderDecoding.number(number, "\(positionPath)[\(n)]") else {
                        throw .decoding(message: "\(positionPath)[\(n)] is null, expected a number")
                    }
                    numbers.append(value)
                }
                guard numbers.count >= 2 else {
                    throw .decoding(
                        message: "\(positionPath) has \(numbers.count) numbers, expected [longitude, latitude]")
                }
                positions.append(numbers)
            }
            rings.append(positions)
        }
        return rings
    }

    private static func array(_ value: JSONValue?, _ path: String) throws(WeatherError) -> [JSONValue] {
        switch value {
        case .array(let items)?: return items
        case nil: throw .decoding(message: "missing member '\(path)'")
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected an array")
        }
    }
}
