import WundercastSupport
import WundercastModel

/// The wind as a phrase, the one rule for its four forms (with or without the Beaufort force's
/// name, with or without the direction) in the human line (``inLine``: `wind 5 Bft, fresh
/// breeze from E`) and at the start of the tooltip's line (``lineStart``: `Wind 9 km/h from E`).
/// Each form is a message of its own, so that a language orders and punctuates it as a whole.
struct WindPhrase: Sendable {
    let plain: String
    let fromDirection: String
    let withForce: String
    let withForceFromDirection: String

    /// Inside a line: `wind 9 km/h from E`.
    static let inLine = WindPhrase(
        plain: N_("wind {speed}"), fromDirection: N_("wind {speed} from {direction}"),
        withForce: N_("wind {speed}, {force}"), withForceFromDirection: N_("wind {speed}, {force} from {direction}"))

    /// Starting a line: `Wind 9 km/h from E`.
    static let lineStart = WindPhrase(
        plain: N_("Wind {speed}"), fromDirection: N_("Wind {speed} from {direction}"),
        withForce: N_("Wind {speed}, {force}"), withForceFromDirection: N_("Wind {speed}, {force} from {direction}"))

    /// The phrase in `locale`'s language: `speed` is the wind as shown (`9 km/h`, `5 Bft`), with
    /// the force's WMO name when `value` is a force (labelled `Bft` by `unit`:
    /// ``HumanFormat/beaufortName(_:unit:_:)``), and `direction` when given (not empty).
    func text(_ speed: String, value: Double?, unit: String?, direction: String?, _ locale: UserLocale) -> String {
        let force = value.flatMap { HumanFormat.beaufortName($0, unit: unit, locale) }
        let direction = direction?.isEmpty == false ? direction : nil
        let message =
            switch (force, direction) {
            case (nil, nil): plain
            case (nil, _?): fromDirection
            case (_?, nil): withForce
            case (_?, _?): withForceFromDirection
            }
        return locale.tr(message, ["speed": speed, "force": force ?? "", "direction": direction ?? ""])
    }
}
