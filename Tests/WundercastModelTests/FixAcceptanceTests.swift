import Foundation
import Testing
import WundercastModel

/// `Fix(report:)`: which TPV reports become fixes (PITFALLS, libgps).
@Suite struct FixAcceptanceTests {
    /// A good 3D report from nl2008u.log's first epoch, as libgps fills it.
    static let good = TPVReport(
        latLonSet: true, mode: 3, latitude: 48.217558333, longitude: 8.414495, time: 1_444_468_352,
        eph: .nan, epx: 6.63, epy: 8.1, altitude: 813.2, speed: 0, track: 0)

    static func with(_ change: (inout TPVReport) -> Void) -> TPVReport {
        var report = good
        change(&report)
        return report
    }

    static let rejected: [(String, TPVReport)] = [
        ("NaN latitude", with { $0.latitude = .nan }),
        ("NaN longitude", with { $0.longitude = .nan }),
        ("infinite latitude", with { $0.latitude = .infinity }),
        ("mode 0 (not seen)", with { $0.mode = 0 }),
        ("mode 1 (no fix)", with { $0.mode = 1 }),
        ("negative mode", with { $0.mode = -1 }),
        ("LATLON_SET not set by this read", with { $0.latLonSet = false }),
        // A zero-initialised gps_data_t before any report: Null Island that nobody reported.
        ("zero-initialised report", TPVReport(latLonSet: false, mode: 0, latitude: 0, longitude: 0)),
        (
            "zero-initialised, mode left from an old fix",
            TPVReport(latLonSet: false, mode: 3, latitude: 0, longitude: 0)
        ),
        ("latitude above 90", with { $0.latitude = 90.000001 }),
        ("latitude below -90", with { $0.latitude = -91 }),
        ("longitude above 180", with { $0.longitude = 180.5 }),
        ("longitude below -180", with { $0.longitude = -181 }),
    ]

    @Test("rejected", arguments: rejected)
    func rejects(_ name: String, _ report: TPVReport) {
        #expect(Fix(report: report) == nil, "\(name)")
    }

    static let accepted: [(TPVReport, FixMode)] = [
        (with { $0.mode = 2 }, .twoD),
        (with { $0.mode = 3 }, .threeD),
        (
            with {
                $0.latitude = 90; $0.longitude = -180
            }, .threeD
        ),
        (
            with {
                $0.latitude = -90; $0.longitude = 180
            }, .threeD
        ),
        // A real report at 0,0 is a fix: only LATLON_SET tells it from a zeroed struct.
        (
            with {
                $0.latitude = 0; $0.longitude = 0
            }, .threeD
        ),
    ]

    @Test("accepted, mode kept", arguments: accepted)
    func accepts(_ report: TPVReport, _ mode: FixMode) throws {
        let fix = try #require(Fix(report: report))
        #expect(fix.mode == mode)
        #expect(fix.coordinate == Coordinate(latitude: report.latitude, longitude: report.longitude))
    }

    @Test func reportWithoutTimeIsAFixWithoutTime() throws {
        let fix = try #require(Fix(report: Self.with { $0.time = nil }))
        #expect(fix.time == nil)
        let timed = try #require(Fix(report: Self.good))
        #expect(timed.time == Date(timeIntervalSince1970: 1_444_468_352))
    }

    @Test func missingFieldsStayAbsent() throws {
        let report = TPVReport(latLonSet: true, mode: 2, latitude: 55.8, longitude: 23.6)
        let fix = try #require(Fix(report: report))
        #expect(fix.altitude == nil)
        #expect(fix.speed == nil)
        #expect(fix.track == nil)
        #expect(fix.horizontalError == nil)
        let full = try #require(Fix(report: Self.good))
        #expect(full.altitude == 813.2)
        #expect(full.speed == 0)
        #expect(full.track == 0)
    }

    static let horizontalErrors: [(eph: Double, epx: Double, epy: Double, expected: Double?)] = [
        (12.5, 3, 4, 12.5),  // eph wins
        (0, 3, 4, 0),  // eph 0 is a value
        (.nan, 3, 4, 5),  // sqrt(epx² + epy²)
        (.nan, 6.63, 8.1, (6.63 * 6.63 + 8.1 * 8.1).squareRoot()),
        (-1, 3, 4, 5),  // negative eph is not an estimate
        (.nan, .nan, 4, nil),  // half a pair is no estimate
        (.nan, 3, .nan, nil),
        (.nan, .nan, .nan, nil),
    ]

    @Test("horizontal error: eph, else from epx/epy, else nil", arguments: horizontalErrors)
    func horizontalError(_ row: (eph: Double, epx: Double, epy: Double, expected: Double?)) throws {
        let fix = try #require(
            Fix(
                report: Self.with {
                    $0.eph = row.eph; $0.epx = row.epx; $0.epy = row.epy
                }))
        if let expected = row.expected {
            let error = try #require(fix.horizontalError)
            #expect(abs(error - expected) < 1e-9)
        } else {
            #expect(fix.horizontalError == nil)
        }
    }

    static let bounds: [(error: Double?, bound: Double, within: Bool)] = [
        (nil, 10, true),  // unknown error (RMC only) is accepted
        (5, 10, true),
        (10, 10, true),  // the bound is inclusive
        (10.01, 10, false),
        (250, 100, false),
        (0, 0, true),
    ]

    @Test("isWithin(horizontalError:)", arguments: bounds)
    func within(_ row: (error: Double?, bound: Double, within: Bool)) {
        let fix = Fix(coordinate: Coordinate(latitude: 1, longitude: 2), mode: .threeD, horizontalError: row.error)
        #expect(fix.isWithin(horizontalError: row.bound) == row.within)
    }
}
