/// A GeoJSON `Polygon` (RFC 7946 §3.1.6): the first ring is the outer boundary, the others are
/// holes. Coordinates are WGS 84 degrees, compared as a plane in longitude/latitude (no great
/// circles, no crossing of the antimeridian: alert areas of one authority never need either).
///
/// ``contains(_:)`` answers by ray casting. A point **on** a ring — on the outer boundary or on
/// the edge of a hole, a vertex included — counts as inside: an alert area's own border belongs
/// to it. "On" means within ``edgeTolerance`` degrees of the edge.
public struct GeoPolygon: Sendable, Equatable {
    /// The rings, outer first. A ring may repeat its first position at the end (GeoJSON does) or
    /// not; both read the same.
    public var rings: [[Coordinate]]

    /// Distance from an edge, in degrees, within which a point counts as on it (1e-9° ≈ 0.1 mm):
    /// room for the rounding of a point computed on the edge, nothing a position could mean.
    public static let edgeTolerance = 1e-9

    public init(rings: [[Coordinate]]) {
        self.rings = rings
    }

    /// The rings of a GeoJSON `coordinates` member, each position `[longitude, latitude]`
    /// (a third number, the altitude, is ignored); `nil` when a position has fewer than two.
    public init?(geoJSON rings: [[[Double]]]) {
        var converted: [[Coordinate]] = []
        for ring in rings {
            var positions: [Coordinate] = []
            for position in ring {
                guard position.count >= 2 else { return nil }
                positions.append(Coordinate(latitude: position[1], longitude: position[0]))
            }
            converted.append(positions)
        }
        self.init(rings: converted)
    }

    /// Whether `point` is inside the outer ring (or on it) and not strictly inside a hole.
    /// `false` when there are no rings, or the outer ring has fewer than three positions.
    public func contains(_ point: Coordinate) -> Bool {
        guard let outer = rings.first, Self.edges(of: outer).count >= 3 else { return false }
        switch Self.locate(point, in: outer) {
        case .outside: return false
        case .onEdge: return true
        case .inside: break
        }
        for hole in rings.dropFirst() where Self.edges(of: hole).count >= 3 {
            switch Self.locate(point, in: hole) {
            case .inside: return false
            case .onEdge: return true
            case .outside: continue
            }
        }
        return true
    }

    enum Location { case inside, onEdge, outside }

    /// Where `point` lies with respect to one ring: on an edge, else inside by the even-odd rule
    /// (a ray towards +longitude crossing the ring an odd number of times).
    static func locate(_ point: Coordinate, in ring: [Coordinate]) -> Location {
        let x = point.longitude
        let y = point.latitude
        var inside = false
        for (a, b) in edges(of: ring) {
            if isOnSegment(point, a, b) { return .onEdge }
            // Half-open in latitude, so a ray through a vertex counts that vertex once.
            if (a.latitude > y) != (b.latitude > y) {
                let crossing = a.longitude + (y - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                if x < crossing { inside.toggle() }
            }
        }
        return inside ? .inside : .outside
    }

    /// The edges of a ring, closing it when its last position is not its first; repeated
    /// positions (zero-length edges) left out.
    static func edges(of ring: [Coordinate]) -> [(Coordinate, Coordinate)] {
        guard ring.count >= 2 else { return [] }
        var edges: [(Coordinate, Coordinate)] = []
        for index in ring.indices {
            let a = ring[index]
            let b = ring[(index + 1) % ring.count]
            if a != b { edges.append((a, b)) }
        }
        return edges
    }

    /// Whether `p` is within ``edgeTolerance`` of the segment `a`–`b`.
    static func isOnSegment(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Bool {
        let t = edgeTolerance
        guard p.longitude >= min(a.longitude, b.longitude) - t, p.longitude <= max(a.longitude, b.longitude) + t,
            p.latitude >= min(a.latitude, b.latitude) - t, p.latitude <= max(a.latitude, b.latitude) + t
        else { return false }
        let dx = b.longitude - a.longitude
        let dy = b.latitude - a.latitude
        let cross = dx * (p.latitude - a.latitude) - dy * (p.longitude - a.longitude)
        let length = (dx * dx + dy * dy).squareRoot()
        return abs(cross) <= t * length
    }
}

/// A GeoJSON `MultiPolygon` (RFC 7946 §3.1.7): it contains a point when one of its polygons does.
public struct GeoMultiPolygon: Sendable, Equatable {
    public var polygons: [GeoPolygon]

    public init(polygons: [GeoPolygon]) {
        self.polygons = polygons
    }

    /// The polygons of a GeoJSON `coordinates` member (`[[[[longitude, latitude]]]]`); `nil` when
    /// a position has fewer than two numbers.
    public init?(geoJSON polygons: [[[[Double]]]]) {
        var converted: [GeoPolygon] = []
        for rings in polygons {
            guard let polygon = GeoPolygon(geoJSON: rings) else { return nil }
            converted.append(polygon)
        }
        self.init(polygons: converted)
    }

    /// Whether one of the polygons contains `point` (its edges included, ``GeoPolygon/contains(_:)``).
    public func contains(_ point: Coordinate) -> Bool {
        polygons.contains { $0.contains(point) }
    }
}
