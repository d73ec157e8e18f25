#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastPipeline
import WundercastSystemd

/// Sends each state change to `watch` clients, the journal (one entry per real change,
/// `MESSAGE_ID` weatherChanged with `WUNDERCAST_*` fields) and systemd's `STATUS=`.
/// The journal and `STATUS=` (which `systemctl status` shows to every user) get the view of
/// `journalViews`: positions rounded to `[Journal] Precision=`, the nearest place's distance
/// in whole kilometres, finer forms of the position in the error text replaced.
/// Cancelling ``run()`` ends its reading of the store.
struct Publisher: DaemonService {
    let name = "publisher"
    let store: StateStore
    let server: SocketServer
    /// The views of a state under the configuration in force (``StateViewer``).
    let views: @Sendable (WeatherState) -> StateViews
    /// The views at `[Journal] Precision=` (their `public` one is used).
    let journalViews: @Sendable (WeatherState) -> StateViews
    let health: Health
    let notifier: ServiceNotifier
    let logger: Logger

    func run() async {
        var previous: WeatherState?
        for await published in store.states() {
            let views = self.views(published)
            server.broadcast(views)
            health.note(published, at: Date())
            // Coarse positions: the journal is kept for weeks (a track of where the machine was).
            let state = journalViews(published).public
            defer { previous = state }
            // Alerts have entries of their own (issued, updated, ended); a new answer of their
            // source alone (its fetch time) is no weather change.
            guard let previous, Self.isJournalChange(from: previous, to: state) else { continue }
            let now = Date()
            let line = HumanFormat.line(state, now: now)
            _ = try? notifier.status(Self.statusLine(state, now: now))
            logger.log(
                [.stale, .error, .offline].contains(state.status) ? .warning : .info, "weather: \(line)",
                fields: Self.journalFields(state))
        }
    }

    /// Whether `new` is a change the journal and `STATUS=` tell: anything but the alerts, the
    /// Moon (which they do not tell) and the receipt of a newer fix alone (the state changes while
    /// the machine moves, for the precise readers' speed and course, which the journal does not get).
    static func isJournalChange(from old: WeatherState, to new: WeatherState) -> Bool {
        func told(_ state: WeatherState) -> WeatherState {
            var state = state
            state.alerts = nil
            state.moon = nil
            state.location?.receivedAt = nil
            state.location?.receivedUptime = nil
            return state
        }
        return told(old) != told(new)
    }

    /// The `STATUS=` line of `state` (its view at `[Journal] Precision=`): read later, by
    /// `systemctl status`, so it says the weather's clock time, not an age that goes stale.
    static func statusLine(_ state: WeatherState, now: Date) -> String {
        HumanFormat.line(state, now: now, age: .clockTime)
    }

    /// The structured fields of a weather-change entry; values the state lacks are left out.
    static func journalFields(_ state: WeatherState) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("MESSAGE_ID", MessageID.weatherChanged), ("WUNDERCAST_STATUS", state.status.rawValue),
            ("WUNDERCAST_PROVIDER", state.provider),
        ]
        if let w = state.weather {
            if let t = w.temperature {
                fields.append(("WUNDERCAST_TEMPERATURE", "\(t)"))
                fields.append(("WUNDERCAST_TEMPERATURE_UNIT", w.units.temperature))
            }
            if let c = w.weatherCode { fields.append(("WUNDERCAST_WEATHER_CODE", "\(c)")) }
            if let h = w.relativeHumidity { fields.append(("WUNDERCAST_RELATIVE_HUMIDITY", "\(h)")) }
            fields += marineJournalFields(w.marine)
        }
        if let l = state.location {
            fields.append(("WUNDERCAST_LATITUDE", "\(l.latitude)"))
            fields.append(("WUNDERCAST_LONGITUDE", "\(l.longitude)"))
            if let mode = l.mode { fields.append(("WUNDERCAST_FIX_MODE", "\(mode)")) }
            if let status = l.status { fields.append(("WUNDERCAST_LOCATION_STATUS", status.rawValue)) }
            if let motion = l.motion { fields.append(("WUNDERCAST_MOVING", motion.moving ? "1" : "0")) }
        }
        if let e = state.error { fields.append(("WUNDERCAST_ERROR", e.code)) }
        return fields
    }
}
