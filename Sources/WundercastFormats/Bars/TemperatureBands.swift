import WundercastModel

/// `wundercastctl --hot T` and `--cold T`: thresholds in the state's temperature unit (the
/// daemon's `TemperatureUnit=`, as `weather.units.temperature` says), compared with the
/// temperature as shown (whole degrees, ``DisplayRounding``), so that the class agrees with
/// the number in the bar: `hot` from `hot` up, `cold` from `cold` down. Each is optional;
/// with both, `hot` is above `cold` (``init(hot:cold:)``).
public struct TemperatureBands: Sendable, Equatable {
    /// The band of a temperature: its waybar class (``BarItem/classes``) and, under a colour
    /// scheme, i3blocks' and i3bar's colour while nothing else calls for attention (``BarColors``).
    public enum Band: String, Sendable, CaseIterable {
        case hot, cold
    }

    /// Why a pair of thresholds cannot be used.
    public struct Invalid: Error, Sendable, Equatable {
        public var message: String
    }

    public let hot: Double?
    public let cold: Double?

    /// No thresholds: no band.
    public static let none = try! TemperatureBands()

    /// Throws ``Invalid`` unless each threshold is finite and `hot` is above `cold`.
    public init(hot: Double? = nil, cold: Double? = nil) throws(Invalid) {
        for (name, value) in [("--hot", hot), ("--cold", cold)] {
            if let value, !value.isFinite { throw Invalid(message: "\(name): expected a number of degrees") }
        }
        if let hot, let cold, hot <= cold {
            throw Invalid(
                message:
                    "--hot \(Self.text(hot)) must be above --cold \(Self.text(cold)) (both in the daemon's temperature unit)"
            )
        }
        self.hot = hot
        self.cold = cold
    }

    /// The band of `weather`'s air temperature as shown (`weather.temperature` rounded to whole
    /// degrees); `nil` without a temperature, or between the thresholds.
    public func band(_ weather: Weather?) -> Band? {
        guard let temperature = weather?.temperature, let shown = DisplayRounding.integer(temperature) else {
            return nil
        }
        if let hot, Double(shown) >= hot { return .hot }
        if let cold, Double(shown) <= cold { return .cold }
        return nil
    }

    /// A threshold as given: `30`, `-5.5`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
