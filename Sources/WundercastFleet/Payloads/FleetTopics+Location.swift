import WundercastModel

extension FleetTopics {
    /// The retained `<prefix>/location` message for Home Assistant's MQTT device tracker, which
    /// reads it as its JSON attributes (`json_attributes_topic`):
    /// `{"gps_accuracy":8,"latitude":49.1234,"longitude":12.2}`, the two coordinates always
    /// together (a consumer never pairs one fix's latitude with another's longitude).
    ///
    /// - `latitude`, `longitude`: the state's `location`, degrees, rounded to `precision`
    ///   decimals (`[MQTT] Precision=`; the state already is, and rounding again changes nothing).
    ///   It is the daemon's published position: a gpsd fix, or the `Fallback=` place.
    /// - `gps_accuracy`: whole metres, the larger of the fix's `eph` and the rounding error at
    ///   `precision` decimals (``PositionAccuracy``).
    ///
    /// `nil` when the state has no location (or its coordinates are not finite numbers).
    public func locationMessage(_ state: WeatherState, precision: Int) -> FleetMessage? {
        guard let location = state.location else { return nil }
        let published = Coordinate(latitude: location.latitude, longitude: location.longitude)
            .rounded(toDecimals: precision)
        let attributes = DeviceTrackerAttributes(
            latitude: published.latitude, longitude: published.longitude,
            gpsAccuracy: PositionAccuracy.wholeMetres(eph: location.eph, decimals: precision))
        return FleetJSON.encode(attributes).map { FleetMessage(topic: self.location, payload: $0) }
    }
}

/// The attributes Home Assistant's MQTT device tracker takes its position from: `latitude`,
/// `longitude` and optionally `gps_accuracy`
/// (https://www.home-assistant.io/integrations/device_tracker.mqtt/, `json_attributes_topic`).
/// Its `source_type` is a discovery option, not an attribute (``DiscoveryComponent``).
struct DeviceTrackerAttributes: Encodable {
    var latitude: Double
    var longitude: Double
    var gpsAccuracy: Int

    private enum CodingKeys: String, CodingKey {
        case latitude, longitude
        case gpsAccuracy = "gps_accuracy"
    }
}
