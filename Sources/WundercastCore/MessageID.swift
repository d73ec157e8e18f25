/// Journal `MESSAGE_ID`s, one per message type (made once with `systemd-id128 new`).
/// `systemd/wundercast.catalog` explains each one for `journalctl -x`.
public enum MessageID {
    /// The published weather state changed (new weather, or a change of status).
    public static let weatherChanged = "4330768736994445b370a81af6593f7e"
    /// A weather fetch failed; the last good weather is kept and marked stale.
    public static let fetchFailed = "5dafd42733ac4299ad6505b0619d0597"
    /// The connection to gpsd was lost, or could not be made; reconnecting with back-off.
    public static let gpsdDisconnected = "2a7932ae7dc04f4798adc3a7da8563be"
    /// The daemon started serving (socket listening, READY=1 sent).
    public static let started = "6dfe9c0b74fc4978aacf3e731a397508"
    /// The authorization status changed (configuration reload or control command).
    public static let authorizationChanged = "414bb71fc22b46999877ae95283da714"
    /// The configuration could not be loaded; the daemon keeps its last good configuration.
    public static let configurationRejected = "1e7b738b64e4420c856be48177c2527a"
    /// The machine resumed from suspend (logind, or a jump of CLOCK_BOOTTIME over CLOCK_MONOTONIC):
    /// the weather is fetched again and the position's age checked at once.
    public static let resumed = "fca0d610036546cfbf020b9eec676255"
    /// The network came back (a new address, route or link) while fetches were backing off after
    /// a network failure: the back-off was cut short.
    public static let networkBack = "05fef11c8cfb4a2fa00868ce5f8f6ae6"
}
