import Testing
@testable import WundercastCore
@Test func placeholder() { #expect(Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 0, longitude: 1)) > 111_000) }
