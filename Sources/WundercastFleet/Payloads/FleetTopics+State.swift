import WundercastModel
import WundercastProtocol

extension FleetTopics {
    /// The retained `<prefix>/state` message: `state` encoded exactly as the socket encodes a
    /// `WEATHER` line (``WundercastProtocol/SocketProtocol/line(_:)``: `"class"` first, members
    /// sorted, ISO 8601 dates, without its newline) but without the relative ages, the top-level
    /// `ageSeconds` and `location.ageSeconds`: a retained age goes false as it waits on the broker.
    /// The absolute moments they count from, `fetchedAt` and `location.receivedAt`, stay.
    ///
    /// `state` is as a reader at `[MQTT] Precision=` sees it (the daemon's `StateViewer` rounds
    /// the position and the place's distance); nothing is rounded here.
    public func stateMessage(_ state: WeatherState) -> FleetMessage {
        var retained = state
        retained.ageSeconds = nil
        retained.location?.ageSeconds = nil
        return FleetMessage(topic: self.state, payload: Array(SocketProtocol.line(retained).dropLast()))
    }
}
