import WundercastModel
import WundercastSupport

extension Configuration {
    /// `[Alerts]`: official severe-weather alerts for the position (issue 17, README "Alerts").
    public struct AlertsSettings: Sendable, Equatable {
        /// `Sources=` `auto` (every source, each where it covers the position), `none` (off), or
        /// a list of `nws`, `metalerts`, `brightsky`, `eccc` separated by blanks or commas.
        /// Default `auto`.
        public var sources: Set<AlertSourceID> = Set(AlertSourceID.allCases)
        /// `Interval=` how often the source is asked again while the position is current (and
        /// once per new position, no sooner than `[Throttle] MinInterval=`): at least 5 min.
        /// Default 10 min.
        public var interval: Duration = .seconds(600)
        /// `NWSURL=`, `MetAlertsURL=`, `BrightSkyURL=`, `ECCCURL=` each source's base URL
        /// (for tests and mirrors). Defaults: ``WundercastModel/AlertSourceID/defaultURL``.
        public var urls: [AlertSourceID: String] = Dictionary(
            uniqueKeysWithValues: AlertSourceID.allCases.map { ($0, $0.defaultURL) })
        public init() {}

        /// The shortest `Interval=`: 5 min (MET Norway asks for no more than one request per
        /// position every few minutes; NWS and DWD update alerts every few minutes at most).
        public static let shortestInterval = Duration.seconds(300)

        /// Whether any source is on.
        public var enabled: Bool { !sources.isEmpty }

        /// `Sources=` as the configuration file spells it: `auto`, `none`, or the list in
        /// ``WundercastModel/AlertSourceID`` order.
        public var sourcesText: String {
            if sources == Set(AlertSourceID.allCases) { return "auto" }
            if sources.isEmpty { return "none" }
            return sources.sorted().map(\.rawValue).joined(separator: " ")
        }
    }

    /// The `[Alerts]` section (``AlertsSettings``).
    static let alertsSection = Section(
        name: "Alerts",
        keys: [
            Key(name: "Sources") { (c, v) throws(InvalidValue) in c.alerts.sources = try alertSources(v) },
            Key(name: "Interval") { (c, v) throws(InvalidValue) in
                guard let span = TimeSpan.parse(v) else {
                    throw InvalidValue("is not a time span (examples: 10min, 15min, 1h)")
                }
                guard span >= AlertsSettings.shortestInterval else {
                    throw InvalidValue("is shorter than 5min (the sources' terms: no faster polling)")
                }
                guard span <= maximumSpan else {
                    throw InvalidValue("is longer than 30 days, the longest span any key takes")
                }
                c.alerts.interval = span
            },
            Key(name: "NWSURL") { (c, v) throws(InvalidValue) in c.alerts.urls[.nws] = try alertURL(v, .nws) },
            Key(name: "MetAlertsURL") { (c, v) throws(InvalidValue) in
                c.alerts.urls[.metAlerts] = try alertURL(v, .metAlerts)
            },
            Key(name: "BrightSkyURL") { (c, v) throws(InvalidValue) in
                c.alerts.urls[.brightSky] = try alertURL(v, .brightSky)
            },
            Key(name: "ECCCURL") { (c, v) throws(InvalidValue) in c.alerts.urls[.eccc] = try alertURL(v, .eccc) },
        ])

    /// `Sources=`: `auto`, `none`, or names separated by blanks or commas (each once).
    static func alertSources(_ v: String) throws(InvalidValue) -> Set<AlertSourceID> {
        let names = v.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        let known = AlertSourceID.allCases.map(\.rawValue).joined(separator: ", ")
        if names == ["auto"] { return Set(AlertSourceID.allCases) }
        if names == ["none"] { return [] }
        guard !names.isEmpty else { throw InvalidValue("is empty (auto, none, or a list of \(known))") }
        var sources = Set<AlertSourceID>()
        for name in names {
            guard let source = AlertSourceID(rawValue: name) else {
                throw InvalidValue(
                    "names \(UntrustedText.sanitized(name, limit: 40)), not an alert source (auto, none, or a list of \(known))"
                )
            }
            guard sources.insert(source).inserted else { throw InvalidValue("names \(name) twice") }
        }
        return sources
    }

    /// A source's base URL; empty: its default.
    static func alertURL(_ v: String, _ source: AlertSourceID) throws(InvalidValue) -> String {
        v.isEmpty ? source.defaultURL : try parseURL(v)
    }
}
