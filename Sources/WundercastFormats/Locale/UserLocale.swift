import WundercastSupport

/// The reader's language, clock and decimal separator: everything that makes text for people
/// differ between users. wundercastctl builds it once at start from `LANG`, `LC_ALL`,
/// `LC_MESSAGES`, `LC_TIME` and `LC_NUMERIC` (gettext; WundercastCtl's `UserLocale.current`)
/// and passes it to every function here that writes human text; ``english`` is the default and
/// what the daemon uses (its texts and journal messages stay English).
///
/// Messages are English texts (the msgids of `po/wundercast.pot`), written at the call as
/// `locale.tr("…")`, `locale.trn("…", "…", n)` or `locale.trp("context", "…")` — one string
/// literal each, which `po/extract.py` collects — or in tables with ``N_(_:)``. Values go in as
/// `{name}` placeholders, filled after translation (so a translation may reorder them, and a
/// value is never read as a placeholder itself).
///
/// What follows the locale: every human text (the `now` line, templates, bar texts and
/// tooltips, `status`, `alerts`, `around`). What never does: JSON (the daemon's line as
/// received with `--format json`; the members of waybar's and i3bar's objects, only inside
/// whose texts it shows), coordinates (`48.12,11.57`, as published), the machine words bars and
/// CSS read (classes, `alt`, `{status}`), unit labels (from the daemon), and the texts of the
/// sources (alerts, place names, OpenWeatherMap's own condition text with `Language=`).
public struct UserLocale: Sendable {
    /// Looks a message up: `single(msgid)`, `plural(singular, plural, count)`; each returns the
    /// msgid (or the English form) when it has no translation.
    public struct Messages: Sendable {
        public var single: @Sendable (String) -> String
        public var plural: @Sendable (String, String, Int) -> String

        public init(
            single: @escaping @Sendable (String) -> String,
            plural: @escaping @Sendable (String, String, Int) -> String
        ) {
            self.single = single
            self.plural = plural
        }

        /// No catalogue: the English texts, `singular` for a count of 1.
        public static let english = Messages(single: { $0 }, plural: { $2 == 1 ? $0 : $1 })
    }

    public var messages: Messages
    /// 12- or 24-hour clock (from `LC_TIME`).
    public var clock: ClockStyle
    /// The decimal separator of numbers in human text (from `LC_NUMERIC`): `.` or `,`.
    public var decimalSeparator: String

    public init(messages: Messages, clock: ClockStyle, decimalSeparator: String) {
        self.messages = messages
        self.clock = clock
        // At most a few characters: a locale's decimal point is one or two.
        self.decimalSeparator = decimalSeparator.isEmpty ? "." : String(decimalSeparator.prefix(4))
    }

    /// English, 24-hour clock, decimal point: the C locale.
    public static let english = UserLocale(messages: .english, clock: .twentyFourHour, decimalSeparator: ".")

    /// The translation of `msgid`, its `{name}` placeholders filled from `values`.
    public func tr(_ msgid: String, _ values: [String: String] = [:]) -> String {
        Self.fill(messages.single(msgid), values)
    }

    /// The translation of `singular`/`plural` for `count` (the language's plural rule picks
    /// the form), `{n}` filled with `count` and the other placeholders from `values`.
    public func trn(
        _ singular: String, _ plural: String, _ count: Int, _ values: [String: String] = [:]
    ) -> String {
        Self.fill(messages.plural(singular, plural, count), values, count: count)
    }

    /// The translation of `msgid` in `context` (gettext's `pgettext`: the msgid
    /// `context` + U+0004 + `msgid`), else `msgid`.
    public func trp(_ context: String, _ msgid: String) -> String {
        let key = context + "\u{4}" + msgid
        let text = messages.single(key)
        return text == key ? msgid : text
    }

    /// A number as ``DisplayRounding`` writes it (`30.56`, `-1.3`) with this locale's decimal
    /// separator (`30,56`).
    public func number(_ text: String) -> String {
        guard decimalSeparator != ".", text.contains(".") else { return text }
        return text.split(separator: ".", omittingEmptySubsequences: false).joined(separator: decimalSeparator)
    }

    /// `template` with each `{name}` whose name is in `values` (or `n` with `count`) replaced,
    /// in one pass: braces in a value stay as they are.
    static func fill(_ template: String, _ values: [String: String], count: Int? = nil) -> String {
        guard template.contains("{") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            out += rest[..<open]
            let name = after[..<close]
            if let value = values[String(name)] {
                out += value
            } else if name == "n", let count {
                out += String(count)
            } else {
                out += rest[open...close]
            }
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
