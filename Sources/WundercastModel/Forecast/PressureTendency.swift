#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Computed: how sea-level pressure changed over the three hours before an observation, the
/// barometric tendency sailors read (WMO reports it over 3 h). JSON:
/// `{"trend":"falling","change":-2.1,"unit":"hPa","source":"hourly"}`.
///
/// `change` is later minus earlier, per 3 h, in ``unit``: computed in hPa and rounded to 0.1 hPa
/// (never `-0`), then converted to `[Weather] PressureUnit=` (``converted(to:)``). `trend` is
/// `steady` while `|change|` is below ``steadyBelow`` (1 hPa), else `rising` or `falling`:
/// the daily pressure tide alone moves pressure by up to about 1 hPa in 3 h, and the Met Office's
/// marine terms call anything from 0.1 to 1.5 hPa only "slowly" (its "steady", under 0.1 hPa,
/// would almost never show with a model series given to 0.1 hPa).
public struct PressureTendency: Sendable, Equatable, Codable {
    public enum Trend: String, Sendable, Codable, CaseIterable {
        case rising, steady, falling
    }

    /// Where the two pressures came from.
    public enum Source: String, Sendable, Codable, CaseIterable {
        /// The provider's hourly series (Open-Meteo `hourly.pressure_msl`).
        case hourly
        /// The daemon's own fetches (``PressureHistory``), for providers without a series.
        case history
    }

    /// A sea-level pressure in hPa at an instant.
    public struct Sample: Sendable, Equatable {
        public var time: Date
        public var pressure: Double
        public init(time: Date, pressure: Double) {
            self.time = time
            self.pressure = pressure
        }
    }

    public var trend: Trend
    /// Later minus earlier per 3 h, in ``unit`` (hPa rounded to 0.1 as computed).
    public var change: Double
    /// The unit of ``change``: `"hPa"` as computed, else the wanted ``PressureUnit``'s label.
    /// A state without it (written before it existed) means hPa.
    public var unit: String
    public var source: Source

    /// A change smaller than this (in hPa per 3 h, either way) is `steady`.
    public static let steadyBelow = 1.0
    /// The span the tendency is measured over: 3 h.
    public static let span: TimeInterval = 3 * 3600
    /// How far the earlier sample may lie from 3 h before the later one (the change is scaled
    /// to 3 h): 30 min.
    public static let tolerance: TimeInterval = 30 * 60
    /// How long before the observation the later sample may lie: 1 h (an hourly series has
    /// one at the start of the observation's hour).
    public static let maxLag: TimeInterval = 3600

    /// The tendency for a `change` in hPa per 3 h (rounded here to 0.1 hPa, then classified).
    public init(change: Double, source: Source) {
        let rounded = (change * 10).rounded() / 10
        self.change = rounded == 0 ? 0 : rounded
        self.unit = PressureUnit.hPa.label
        self.source = source
        if self.change >= Self.steadyBelow {
            trend = .rising
        } else if self.change <= -Self.steadyBelow {
            trend = .falling
        } else {
            trend = .steady
        }
    }

    /// The tendency with ``change`` in `wanted` (the trend stays as classified in hPa); itself
    /// when ``unit`` names no pressure unit.
    public func converted(to wanted: PressureUnit) -> PressureTendency {
        guard let conversion = PhysicalUnits.conversion(from: unit, to: wanted) else { return self }
        var copy = self
        copy.change = conversion.apply(change)
        copy.unit = conversion.label
        return copy
    }

    /// Sea-level pressures a sample may have (hPa): the records are about 870 and 1084 hPa.
    public static let plausible: ClosedRange<Double> = 800...1200

    /// The tendency at `observed` from `samples` (in any order; pressures outside ``plausible``
    /// are ignored):
    /// the later sample is the newest at or before `observed`, at most ``maxLag`` before it; the
    /// earlier one the sample nearest to 3 h before that, within ``tolerance``. `nil` when
    /// either is missing.
    public static func compute(_ samples: [Sample], at observed: Date, source: Source) -> PressureTendency? {
        let usable = samples.filter { plausible.contains($0.pressure) }
        guard
            let later = usable.filter({ $0.time <= observed && observed.timeIntervalSince($0.time) <= maxLag })
                .max(by: { $0.time < $1.time })
        else { return nil }
        let target = later.time.addingTimeInterval(-span)
        guard
            let earlier = usable.filter({ $0.time < later.time && abs($0.time.timeIntervalSince(target)) <= tolerance })
                .min(by: { abs($0.time.timeIntervalSince(target)) < abs($1.time.timeIntervalSince(target)) })
        else { return nil }
        let elapsed = later.time.timeIntervalSince(earlier.time)
        return PressureTendency(change: (later.pressure - earlier.pressure) * span / elapsed, source: source)
    }
}

extension PressureTendency {
    private enum CodingKeys: String, CodingKey {
        case trend, change, unit, source
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        trend = try container.decode(Trend.self, forKey: .trend)
        change = try container.decode(Double.self, forKey: .change)
        unit = try container.decodeIfPresent(String.self, forKey: .unit) ?? PressureUnit.hPa.label
        source = try container.decode(Source.self, forKey: .source)
    }
}

/// The sea-level pressures of the daemon's own fetches, for a tendency when the provider gives
/// no series: each fetch records the pressure at its observation time. Keeps what a tendency
/// can use (the last ``keep``), at most ``capacity`` samples.
public struct PressureHistory: Sendable, Equatable {
    /// Samples older than this before the newest are dropped: 3 h + tolerance + lag.
    public static let keep: TimeInterval = PressureTendency.span + PressureTendency.tolerance + PressureTendency.maxLag
    /// At most this many samples (a fetch every `MinInterval` of 2 min fills 4.5 h with 135).
    public static let capacity = 256

    public private(set) var samples: [PressureTendency.Sample] = []

    public init() {}

    /// Adds `pressure` (hPa) observed at `time`; a second sample for the same time replaces the
    /// first; a pressure outside ``PressureTendency/plausible`` is not recorded.
    public mutating func record(_ pressure: Double, at time: Date) {
        guard PressureTendency.plausible.contains(pressure) else { return }
        samples.removeAll { $0.time == time }
        let index = samples.firstIndex { $0.time > time } ?? samples.endIndex
        samples.insert(.init(time: time, pressure: pressure), at: index)
        if let newest = samples.last?.time {
            samples.removeAll { newest.timeIntervalSince($0.time) > Self.keep }
        }
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    /// The tendency at `observed` from the recorded samples (source `history`).
    public func tendency(at observed: Date) -> PressureTendency? {
        PressureTendency.compute(samples, at: observed, source: .history)
    }
}
