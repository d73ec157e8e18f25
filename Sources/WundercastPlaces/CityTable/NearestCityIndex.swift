#if canImport(Glibc)
import Glibc
#endif
import WundercastModel

/// The nearest-city index: an implicit k-d tree over the cities' positions as points on the
/// unit sphere (x, y, z), built once when the table is parsed.
///
/// Points in three dimensions have no seam: the antimeridian (179.9° E is next to 179.9° W)
/// and the poles need no special case, and the straight-line (chord) distance between two
/// points grows with their great-circle distance, so the nearest point is the nearest city.
/// The tree is implicit: the table stores its cities in tree order (the root of the range
/// `lo..<hi` is its middle element, split on axis `depth % 3`), so it needs no memory of its
/// own. A query visits some tens of cities, not 24k.
enum NearestCityIndex {
    /// The unit vector of a position given in 1e-5 degrees.
    static func point(latitude: Int32, longitude: Int32) -> SIMD3<Double> {
        point(Coordinate(latitude: Double(latitude) / 1e5, longitude: Double(longitude) / 1e5))
    }

    /// The unit vector of a coordinate.
    static func point(_ coordinate: Coordinate) -> SIMD3<Double> {
        let φ = coordinate.latitude * .pi / 180
        let λ = coordinate.longitude * .pi / 180
        return SIMD3(cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }

    /// The order in which to store the cities (given in file order) so that they form the
    /// implicit k-d tree: element `i` of the result is the file index of the city stored at `i`.
    static func order(latitudes: [Int32], longitudes: [Int32]) -> [Int] {
        let points = zip(latitudes, longitudes).map { point(latitude: $0, longitude: $1) }
        var order = Array(points.indices)
        build(&order, points, 0, order.count, depth: 0)
        return order
    }

    private static func build(_ order: inout [Int], _ points: [SIMD3<Double>], _ lo: Int, _ hi: Int, depth: Int) {
        guard hi - lo > 1 else { return }
        let mid = (lo + hi) / 2
        Self.select(&order, points, lo, hi, mid, axis: depth % 3)
        build(&order, points, lo, mid, depth: depth + 1)
        build(&order, points, mid + 1, hi, depth: depth + 1)
    }

    /// Quickselect (Hoare partition): afterwards `order[k]` holds the element that sorts there by
    /// `axis`, none before it is greater and none after it smaller.
    private static func select(
        _ order: inout [Int], _ points: [SIMD3<Double>], _ lo: Int, _ hi: Int, _ k: Int, axis: Int
    ) {
        var lo = lo
        var hi = hi - 1
        while lo < hi {
            let pivot = points[order[(lo + hi) / 2]][axis]
            var i = lo
            var j = hi
            while i <= j {
                while points[order[i]][axis] < pivot { i += 1 }
                while points[order[j]][axis] > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                return
            }
        }
    }

    /// The index (in tree order) of the city nearest to `target` among `count` cities whose
    /// points `pointAt` gives; nil when there are none. Ties go to the city met first.
    static func nearest(to target: SIMD3<Double>, count: Int, pointAt: (Int) -> SIMD3<Double>) -> Int? {
        var best: (index: Int, distance: Double)?
        func visit(_ lo: Int, _ hi: Int, _ depth: Int) {
            guard lo < hi else { return }
            let mid = (lo + hi) / 2
            let p = pointAt(mid)
            let d = p - target
            let squared = (d * d).sum()
            if best == nil || squared < best!.distance { best = (mid, squared) }
            let axis = depth % 3
            let offset = target[axis] - p[axis]
            if offset < 0 {
                visit(lo, mid, depth + 1)
                if offset * offset < best!.distance { visit(mid + 1, hi, depth + 1) }
            } else {
                visit(mid + 1, hi, depth + 1)
                if offset * offset < best!.distance { visit(lo, mid, depth + 1) }
            }
        }
        visit(0, count, 0)
        return best?.index
    }

    /// Calls `body` with the index (in tree order) of every city among `count` whose point is
    /// at most `chord` (straight-line distance on the unit sphere) from `target`; the subtrees
    /// the splitting planes rule out are not visited.
    static func within(
        chord: Double, of target: SIMD3<Double>, count: Int, pointAt: (Int) -> SIMD3<Double>, _ body: (Int) -> Void
    ) {
        let limit = chord * chord
        func visit(_ lo: Int, _ hi: Int, _ depth: Int) {
            guard lo < hi else { return }
            let mid = (lo + hi) / 2
            let p = pointAt(mid)
            let d = p - target
            if (d * d).sum() <= limit { body(mid) }
            let offset = target[depth % 3] - p[depth % 3]
            if offset <= 0 || offset * offset <= limit { visit(lo, mid, depth + 1) }
            if offset >= 0 || offset * offset <= limit { visit(mid + 1, hi, depth + 1) }
        }
        visit(0, count, 0)
    }
}
