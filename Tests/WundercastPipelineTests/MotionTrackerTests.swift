import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// Moving or not (``MotionTracker``): smoothing and hysteresis on synthetic jitter, on a real
/// receiver at rest and on the real kayak trip; the publishing rule; the published units.
@Suite struct MotionTrackerTests {
    typealias Tracker = MotionTracker<ManualClock.Instant>
    let clock = ManualClock()

    /// An RMC sentence's speed and track, at its UTC time (seconds since the day's midnight
    /// plus its date's day of month × 86,400: enough to order one trip).
    struct Sample {
        var seconds: Double
        var speed: Double
        var track: Double?
        var time: String
    }

    /// The valid RMC sentences of an NMEA log with a speed, in file order.
    static func samples(_ path: String) throws -> [Sample] {
        let text = String(decoding: try Fixtures.bytes(path), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 9, f[0].hasSuffix("RMC"), f[2] == "A", f[9].count == 6, let hms = Double(f[1]),
                let knots = Double(f[7]), let day = Int(f[9].prefix(2))
            else { return nil }
            let seconds =
                Double(Int(hms) / 10000 * 3600 + Int(hms) / 100 % 100 * 60) + hms.truncatingRemainder(dividingBy: 100)
            return Sample(
                seconds: Double(day) * 86_400 + seconds, speed: knots * 1852 / 3600, track: Double(f[8]),
                time: String(f[1].prefix(6)))
        }
    }

    /// Feeds `samples` at their own times, a time that steps back (spliced recordings) as 1 s
    /// after the one before (the daemon counts receipts on its monotonic clock); returns each
    /// reading that changed, with the sample it changed at.
    func replay(_ samples: [Sample], into tracker: inout Tracker) -> [(sample: Sample, reading: Tracker.Reading)] {
        guard let start = samples.first?.seconds else { return [] }
        var changes: [(Sample, Tracker.Reading)] = []
        var (shift, previous) = (0.0, start)
        for sample in samples {
            if sample.seconds + shift < previous { shift = previous + 1 - sample.seconds }
            previous = sample.seconds + shift
            let at = clock.at(.milliseconds(Int64(((previous - start) * 1000).rounded())))
            let before = tracker.reading
            tracker.fix(speed: sample.speed, track: sample.track, at: at)
            if let reading = tracker.reading, reading != before { changes.append((sample, reading)) }
        }
        return changes
    }

    /// An hour at rest with a receiver's jitter (0–0.45 m/s in any direction) and a spike of
    /// 2.5 m/s every 37 s: never moving, published once.
    @Test func jitterAtRestStaysStopped() {
        var random = SplitMix(seed: 19)
        let samples = (0..<3600).map { second in
            Sample(
                seconds: Double(second),
                speed: second % 37 == 36 ? 2.5 : random.next(in: 0...0.45), track: random.next(in: 0...359.9),
                time: "")
        }
        var tracker = Tracker()
        let changes = replay(samples, into: &tracker)
        #expect(changes.count == 1)
        #expect(changes.allSatisfy { !$0.reading.moving && $0.reading.speed == nil && $0.reading.course == nil })
    }

    /// bt451.log: a real receiver at rest (0.25–0.37 kn) is stopped, then the car it is in moves
    /// (30 kn and more).
    @Test func aRealReceiverAtRestIsStoppedUntilItsCarDrivesOff() throws {
        let samples = try Self.samples("nmea/bt451.log")
        let rest = samples.prefix { $0.speed < 1 }
        #expect(rest.count >= 8)
        var tracker = Tracker()
        let changes = replay(samples, into: &tracker)
        #expect(changes.first?.reading == Tracker.Reading(moving: false))
        #expect(changes.filter { $0.sample.speed < 1 }.count == 1)
        #expect(tracker.reading?.moving == true)
    }

    /// The recorded kayak trip (Tomales Bay, 2 h 13, speeds 0.8–4.4 kn while paddling, 0.0 at
    /// rest): its 131 changes between paddling and resting become a few changes of `moving`;
    /// it moves through the long stretches, is stopped for the last 45 minutes on the beach,
    /// and the course follows the track the receiver reports.
    @Test func theKayakTripMovesWhilePaddlingAndStopsOnTheBeach() throws {
        let samples = try Self.samples("nmea/kayak_tomales-bay_2018-08-20_2h13.nmea")
        #expect(samples.count > 7000)
        var tracker = Tracker()
        let changes = replay(samples, into: &tracker)
        let flips = zip(changes, changes.dropFirst()).filter { $0.reading.moving != $1.reading.moving }.count
        #expect(flips >= 3 && flips <= 10, "\(flips) flips")
        #expect(tracker.reading?.moving == false)
        let lastMoving = try #require(changes.last { $0.reading.moving })
        #expect(lastMoving.sample.time < "181800", "moving at \(lastMoving.sample.time)")
        // 17:05–17:15, paddling without a pause: moving in every reading, with speed and course.
        let stretch = changes.filter { $0.sample.time >= "170500" && $0.sample.time <= "171500" }
        #expect(stretch.count >= 15)
        for (sample, reading) in stretch {
            #expect(reading.moving && reading.speed.map { $0 > 0.5 && $0 < 2 } == true, "\(sample.time)")
            let course = try #require(reading.course, "\(sample.time)")
            let reported = try #require(sample.track)
            let apart = abs((course - reported + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(apart < 45, "\(sample.time): course \(course), RMC track \(reported)")
        }
    }

    /// Starts at 0.5 m/s of mean speed, stops below 0.25: between the two it stays as it was.
    @Test func hysteresisKeepsTheStateBetweenTheThresholds() {
        var tracker = Tracker()
        tracker.fix(speed: 0.45, track: 90, at: clock.at(.zero))
        for second in 1...300 { tracker.fix(speed: 0.45, track: 90, at: clock.at(.seconds(second))) }
        #expect(tracker.reading?.moving == false)
        for second in 301...400 { tracker.fix(speed: 1.0, track: 90, at: clock.at(.seconds(second))) }
        #expect(tracker.reading?.moving == true)
        for second in 401...700 { tracker.fix(speed: 0.3, track: 90, at: clock.at(.seconds(second))) }
        #expect(tracker.reading?.moving == true)
        for second in 701...800 { tracker.fix(speed: 0.2, track: 90, at: clock.at(.seconds(second))) }
        #expect(tracker.reading == Tracker.Reading(moving: false))
    }

    /// Moving: a new reading at most every 30 s; starting and stopping at once.
    @Test func whileMovingReadingsComeAtMostEvery30Seconds() {
        var tracker = Tracker()
        var changedAt: [Int] = []
        for second in 0...300 {
            let before = tracker.reading
            let speed = second < 200 ? 2.0 + Double(second % 7) / 10 : 0
            tracker.fix(speed: speed, track: 180, at: clock.at(.seconds(second)))
            if tracker.reading != before { changedAt.append(second) }
        }
        #expect(changedAt.first == 0)
        let moving = changedAt.filter { $0 < 200 }
        #expect(zip(moving, moving.dropFirst()).allSatisfy { $1 - $0 >= 30 })
        #expect(moving.count >= 6)
        // Stopping is told at once: a mean of 2.3 m/s falls below 0.25 m/s in about 45 s (20 s × ln 9).
        #expect(changedAt.last.map { $0 > 240 && $0 <= 250 } == true, "\(changedAt)")
        #expect(tracker.reading == Tracker.Reading(moving: false))
    }

    /// The course is the mean velocity's direction: 359° and 1° make north, not south.
    @Test func courseAveragesAcrossNorth() throws {
        var tracker = Tracker()
        for second in 0...60 {
            tracker.fix(speed: 3, track: second % 2 == 0 ? 359 : 1, at: clock.at(.seconds(second)))
        }
        let course = try #require(tracker.reading?.course)
        #expect(course < 2 || course > 358)
    }

    /// A fix without a speed (GGA) teaches nothing; one without a track gives no course.
    @Test func fixesWithoutSpeedOrTrack() {
        var tracker = Tracker()
        tracker.fix(speed: nil, track: 90, at: clock.at(.zero))
        tracker.fix(speed: .nan, track: 90, at: clock.at(.seconds(1)))
        #expect(tracker.reading == nil)
        tracker.fix(speed: 3, track: nil, at: clock.at(.seconds(2)))
        #expect(tracker.reading == Tracker.Reading(moving: true, speed: 3, course: nil))
    }

    /// Two minutes north at 15 m/s, ten parked with a speed and no track (as bt451.log's
    /// u-blox reports rest: `0.253,,`), then south at 5 m/s: the first moving reading after the
    /// stop says south, not the course the car came with.
    @Test func aCarThatParkedDrivesOffOnItsNewCourse() throws {
        var tracker = Tracker()
        var second = 0
        func feed(_ count: Int, speed: Double, track: Double?) {
            for _ in 0..<count {
                tracker.fix(speed: speed, track: track, at: clock.at(.seconds(second)))
                second += 1
            }
        }
        feed(120, speed: 15, track: 0)
        feed(600, speed: 0.1, track: nil)
        #expect(tracker.reading == Tracker.Reading(moving: false))
        while tracker.reading?.moving != true, second < 900 { feed(1, speed: 5, track: 180) }
        let course = try #require(tracker.reading?.course, "\(String(describing: tracker.reading))")
        #expect(abs(course - 180) < 1, "drove off south, read \(course)°")
    }

    /// A receiver's glitch beyond any vehicle (900 kn once among rest readings at 1 Hz, 10⁹ m/s
    /// as a first fix) is ignored, not averaged: the machine stays stopped and no reading ever
    /// holds it. 300 m/s itself is still a speed.
    @Test func speedsBeyondAnyVehicleAreIgnored() {
        var tracker = Tracker()
        tracker.fix(speed: 1e9, track: 90, at: clock.at(.zero))
        #expect(tracker.reading == nil)
        var readings: [Tracker.Reading?] = []
        for second in 1...120 {
            tracker.fix(speed: second == 10 ? 900 * 1852.0 / 3600 : 0.1, track: 90, at: clock.at(.seconds(second)))
            readings.append(tracker.reading)
        }
        #expect(readings.allSatisfy { $0 == Tracker.Reading(moving: false) })
        tracker.fix(speed: Tracker.greatestSpeed, track: 90, at: clock.at(.seconds(200)))
        #expect(tracker.reading?.moving == true)
        #expect((tracker.reading?.speed ?? 0) <= Tracker.greatestSpeed)
    }

    /// The state's units: knots for Beaufort (a force is for wind only), km/h by default; speed
    /// to 0.1, course whole degrees 0–359; neither at rest.
    @Test func publishedInTheUnitOfOtherSpeeds() {
        let reading = Tracker.Reading(moving: true, speed: 2.16, course: 359.6)
        #expect(
            reading.published(in: UnitPreferences(.metric, windSpeed: .bft))
                == WeatherState.Motion(moving: true, speed: 4.2, course: 0, units: .init(speed: "kn")))
        #expect(
            reading.published(in: .metric)
                == WeatherState.Motion(moving: true, speed: 7.8, course: 0, units: .init(speed: "km/h")))
        #expect(Tracker.Reading(moving: false).published(in: .imperial) == WeatherState.Motion(moving: false))
    }
}
