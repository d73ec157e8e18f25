import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// Point in polygon on real alert areas: the three gale-warning areas of a recorded MetAlerts
/// answer off Vestland (`Tests/Fixtures/alerts/metalerts/`), one of them a MultiPolygon whose
/// two parts share an edge, and two of them sharing an edge with each other. No recorded ECCC
/// polygon was found; the hole is built here from a real ring (said where).
@Suite struct GeoPolygonTests {
    static let marine = "alerts/metalerts/current_marine_gale_3_multipolygon_no.json"

    /// The `geometry.coordinates` of each feature, as GeoJSON polygons (a Polygon is one).
    static func areas() throws -> [[[[[Double]]]]] {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(marine))) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        return try features.map { feature in
            let geometry = try #require(feature["geometry"] as? [String: Any])
            if geometry["type"] as? String == "MultiPolygon" {
                return try #require(geometry["coordinates"] as? [[[[Double]]]])
            }
            return [try #require(geometry["coordinates"] as? [[[Double]]])]
        }
    }

    /// Måløy – Svinøy (MultiPolygon), Bulandet – Måløy, Fedje – Bulandet.
    static func shapes() throws -> (maloy: GeoMultiPolygon, bulandet: GeoPolygon, fedje: GeoPolygon) {
        let areas = try areas()
        return (
            try #require(GeoMultiPolygon(geoJSON: areas[0])),
            try #require(GeoPolygon(geoJSON: areas[1][0])),
            try #require(GeoPolygon(geoJSON: areas[2][0]))
        )
    }

    static func point(_ longitude: Double, _ latitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }

    @Test func insideEachAreaAndOutsideTheOthers() throws {
        let (maloy, bulandet, fedje) = try Self.shapes()
        let north = Self.point(4.95, 62.1)  // first part of Måløy – Svinøy
        let middle = Self.point(4.62, 61.6)  // Bulandet – Måløy
        let south = Self.point(4.58, 61.0)  // Fedje – Bulandet
        #expect(maloy.contains(north) && !bulandet.contains(north) && !fedje.contains(north))
        #expect(!maloy.contains(middle) && bulandet.contains(middle) && !fedje.contains(middle))
        #expect(!maloy.contains(south) && !bulandet.contains(south) && fedje.contains(south))
    }

    @Test func bergenOnLandIsInNoMarineArea() throws {
        let (maloy, bulandet, fedje) = try Self.shapes()
        let bergen = Self.point(5.32, 60.39)
        #expect(!maloy.contains(bergen) && !bulandet.contains(bergen) && !fedje.contains(bergen))
    }

    @Test func theSecondPartOfTheMultiPolygon() throws {
        let (maloy, _, _) = try Self.shapes()
        let east = Self.point(5.25, 62.28)
        #expect(maloy.contains(east))
        #expect(!maloy.polygons[0].contains(east) && maloy.polygons[1].contains(east))
    }

    @Test func onAnEdgeOrAVertexCountsAsInside() throws {
        let (maloy, bulandet, fedje) = try Self.shapes()
        // The edge Bulandet – Måløy shares with Måløy – Svinøy: (5.0192, 62.0217)–(4.8643, 62.034).
        let shared = Self.point((5.0192 + 4.8643) / 2, (62.0217 + 62.034) / 2)
        #expect(maloy.contains(shared) && bulandet.contains(shared))
        // The edge between the two parts of the MultiPolygon: (5.0323, 62.201)–(5.1408, 62.1837).
        let seam = Self.point((5.0323 + 5.1408) / 2, (62.201 + 62.1837) / 2)
        #expect(maloy.polygons[0].contains(seam) && maloy.polygons[1].contains(seam))
        // A vertex of Fedje – Bulandet that is also one of Bulandet – Måløy.
        let vertex = Self.point(4.4903, 61.298)
        #expect(fedje.contains(vertex) && bulandet.contains(vertex))
        // Just off that vertex, west (open sea beyond both areas).
        #expect(!fedje.contains(Self.point(4.4893, 61.298)) && !bulandet.contains(Self.point(4.4893, 61.298)))
    }

    @Test func aHoleExcludesItsInsideButNotItsEdge() throws {
        // Built here: Fedje – Bulandet's real ring with a hole, the triangle around its middle.
        let (_, _, fedje) = try Self.shapes()
        let hole = [Self.point(4.55, 60.95), Self.point(4.62, 60.95), Self.point(4.58, 61.05), Self.point(4.55, 60.95)]
        let holed = GeoPolygon(rings: [fedje.rings[0], hole])
        #expect(!holed.contains(Self.point(4.58, 61.0)))  // in the hole
        #expect(holed.contains(Self.point(4.585, 60.95)))  // on the hole's edge
        #expect(holed.contains(Self.point(4.58, 61.2)))  // in the polygon, outside the hole
        #expect(fedje.contains(Self.point(4.58, 61.0)))  // the same point without the hole
    }

    @Test func aRingNeedNotRepeatItsFirstPosition() throws {
        let (_, _, fedje) = try Self.shapes()
        let open = GeoPolygon(rings: [Array(fedje.rings[0].dropLast())])
        for point in [Self.point(4.58, 61.0), Self.point(5.32, 60.39), Self.point(4.4903, 61.298)] {
            #expect(open.contains(point) == fedje.contains(point))
        }
    }

    @Test func degenerateShapesContainNothing() {
        let here = Self.point(4.58, 61.0)
        #expect(!GeoPolygon(rings: []).contains(here))
        #expect(!GeoPolygon(rings: [[here, Self.point(4.6, 61.0), here]]).contains(here))
        #expect(!GeoMultiPolygon(polygons: []).contains(here))
        #expect(GeoPolygon(geoJSON: [[[4.5, 61.0], [4.6]]]) == nil)
    }
}
