/// Journal `MESSAGE_ID`s, one per message type (made once with `systemd-id128 new`).
/// `systemd/wundercast.catalog` explains each one for `journalctl -x`; the README lists them.
/// Each entry also carries `PRIORITY`, `CODE_FILE`/`CODE_LINE`/`CODE_FUNC` and the
/// `WUNDERCAST_*` fields its catalog entry names. Positions in any entry are rounded to
/// `[Journal] Precision=`; no entry holds an API key or a URL with one.
public enum MessageID {
    /// The daemon started serving (socket listening, READY=1 sent).
    public static let started = "6dfe9c0b74fc4978aacf3e731a397508"
    /// The connection to gpsd became healthy (first time, or after an outage).
    public static let gpsdConnected = "59543c063c244e1982828a410a609539"
    /// The connection to gpsd was lost, or could not be made; reconnecting with back-off.
    public static let gpsdDisconnected = "2a7932ae7dc04f4798adc3a7da8563be"
    /// gpsd reported the GPS receiver deactivated (unplugged); the position ages.
    public static let deviceGone = "dde95926d0a0448e992b285a17a3ac71"
    /// A current GPS position again (first fix, or the first after the position went stale).
    public static let fixAcquired = "fba4efd96c2f48a8b044deaf24f9028e"
    /// No fix for more than `MaxFixAge`: the position is only the last known one.
    public static let fixLost = "7ffa72b8865b4e609eb42c3e6b314f5e"
    /// The authorization status changed (configuration reload or control command).
    public static let authorizationChanged = "414bb71fc22b46999877ae95283da714"
    /// The published weather state changed (new weather, or a change of status).
    public static let weatherChanged = "4330768736994445b370a81af6593f7e"
    /// A weather fetch failed (the provider's error); the last good weather is kept, stale.
    public static let fetchFailed = "5dafd42733ac4299ad6505b0619d0597"
    /// After a failed fetch the next one waits (exponential back-off, or the provider's
    /// `Retry-After`).
    public static let backOff = "970cf540720746edacb49de1002c8071"
    /// A configuration reload (SIGHUP) was applied.
    public static let configurationReloaded = "53498370de2a4de3931d136166d84825"
    /// The configuration could not be loaded; the daemon keeps its last good configuration.
    public static let configurationRejected = "1e7b738b64e4420c856be48177c2527a"
    /// The socket refused a client: `[Socket] MaxClients=` reached, or out of descriptors.
    public static let clientLimit = "83b1ba67b15d4a6aa163b5b003062b77"
    /// The last state was loaded from the cache file at start and published as stale.
    public static let cacheLoaded = "6305a97aaa094770b81b5d3409fef39c"
    /// The cache file could not be used (corrupt or incompatible) and was set aside.
    public static let cacheSetAside = "764e97ed06fe473fbe5a6eba8f68f649"
    /// The machine resumed from suspend (logind, or a jump of CLOCK_BOOTTIME over CLOCK_MONOTONIC):
    /// the weather is fetched again and the position's age checked at once.
    public static let resumed = "fca0d610036546cfbf020b9eec676255"
    /// The saved authorization decision exists but cannot be read or parsed: GPS use counts as
    /// `denied` until `authorize` replaces it.
    public static let decisionUnreadable = "9b74b801f7fc4f45863abb65652aec71"
    /// The network came back (a new address, route or link) while fetches were backing off after
    /// a network failure: the back-off was cut short.
    public static let networkBack = "05fef11c8cfb4a2fa00868ce5f8f6ae6"
    /// The MQTT broker accepted the connection (first time, or after an outage).
    public static let brokerConnected = "617c90f0c64a4b3194659a34a745d821"
    /// The connection to the MQTT broker was lost, refused or could not be made; reconnecting
    /// with back-off. Only the first failure of an outage, and each new reason, at this level.
    public static let brokerDisconnected = "125e9b933bd3444197033d9cf44f377a"
    /// The broker refused a message (MQTT 5 PUBACK reason ≥ 128, e.g. 135 not authorized by its
    /// ACL); logged once per topic and reason.
    public static let publishRefused = "688e4d32fb8b4aff8a85b1d1b35a1803"
    /// An official alert is in force for the position (issued, or first seen).
    public static let alertIssued = "a82d72de641e460ca50dc0ef7777af78"
    /// An alert in force was updated (an Update, or the source changed it).
    public static let alertUpdated = "2f311eb5ad334547a4719bec3429bceb"
    /// An alert ended: expired, cancelled, or no longer listed by the source.
    public static let alertEnded = "3b960dbd7408411c8f8e9a6fcdc24378"
    /// The alert source for the position did not answer (or answered badly); what is known of
    /// its alerts may be incomplete. Logged once per source and reason.
    public static let alertsUnavailable = "0ccc4304ed2349d0be8b208a28411b71"
}
