import WundercastSupport
import WundercastModel

extension Placeholder {
    /// `{speed}` (`4.2 kn`: ``DisplayRounding/speedOverGround(_:)`` in `locale`'s decimal
    /// separator, with the daemon's unit label, sanitized) and `{course}` (`212°`, whole degrees
    /// 0–359) while the machine moves; neither at rest, nor without them (a public reader gets
    /// `moving` alone).
    static func motionValues(
        _ motion: WeatherState.Motion?, _ locale: UserLocale, into values: inout [Placeholder: String]
    ) {
        guard let motion, motion.moving else { return }
        values[.speed] = motion.speed.flatMap {
            withUnit(locale.number(DisplayRounding.speedOverGround($0)), motion.units?.speed)
        }
        values[.course] = motion.course.flatMap(DisplayRounding.integer).map { "\(($0 % 360 + 360) % 360)°" }
    }
}
