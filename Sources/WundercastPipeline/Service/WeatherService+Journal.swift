import WundercastSupport
import WundercastModel

/// The journal entries of the service's events: each with its ``MessageID`` and `WUNDERCAST_*`
/// fields, positions at `[Journal] Precision=` (the text of a provider's error may echo the
/// request's coordinates, e.g. a URL: its finer forms are replaced).
extension WeatherService {
    /// A failed fetch (``MessageID/fetchFailed``) and, when another fetch is scheduled, the
    /// back-off before it (``MessageID/backOff``).
    func logFailure(_ error: WeatherError, retryIn: Duration?) {
        var message = error.message
        if let l = store.current.location {
            message = UntrustedText.hidingPosition(
                message, exact: Coordinate(latitude: l.latitude, longitude: l.longitude),
                publicPrecision: settings.journalPrecision)
        }
        let retry = retryIn.map { "; retry in \($0)" } ?? ""
        logger.log(
            error.kind.logPriority, "weather fetch failed: \(message)\(retry)",
            fields: [
                ("MESSAGE_ID", MessageID.fetchFailed), ("WUNDERCAST_ERROR", error.code),
                ("WUNDERCAST_PROVIDER", store.current.provider),
            ])
        guard let retryIn else { return }
        logger.log(
            .info, "next weather fetch in \(TimeSpan.format(retryIn)) (back-off after \(error.code))",
            fields: [
                ("MESSAGE_ID", MessageID.backOff), ("WUNDERCAST_ERROR", error.code),
                ("WUNDERCAST_RETRY_MS", String(retryIn.wholeMilliseconds)),
            ])
    }

    /// The position became current (``MessageID/fixAcquired``; at `fix` when a fix did it, else
    /// at the position shown) or stopped being so (``MessageID/fixLost``).
    func logFixChange(_ change: FixCurrency.Change, fix: Fix? = nil) {
        switch change {
        case .acquired:
            var fields = [("MESSAGE_ID", MessageID.fixAcquired)]
            var place = ""
            let location = store.current.location
            let at =
                fix?.coordinate ?? location.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            if let at {
                let shown = at.rounded(toDecimals: settings.journalPrecision)
                place = " near \(shown.latitude),\(shown.longitude)"
                fields += [
                    ("WUNDERCAST_LATITUDE", "\(shown.latitude)"), ("WUNDERCAST_LONGITUDE", "\(shown.longitude)"),
                ]
            }
            if let mode = fix.map({ $0.mode.rawValue }) ?? location?.mode {
                fields.append(("WUNDERCAST_FIX_MODE", "\(mode)"))
            }
            logger.log(.info, "GPS fix acquired\(place)", fields: fields)
        case .lost:
            logger.log(
                .notice,
                "GPS fix lost: none for \(TimeSpan.format(settings.maxFixAge)); the position is the last known",
                fields: [
                    ("MESSAGE_ID", MessageID.fixLost),
                    ("WUNDERCAST_MAX_FIX_AGE_MS", String(settings.maxFixAge.wholeMilliseconds)),
                ])
        }
    }
}
