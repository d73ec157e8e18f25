extension WeatherState {
    /// Whether the machine is moving, with its speed and course over ground while it is
    /// (`location.motion`), e.g. `{"course":212,"moving":true,"speed":3.9,"units":{"course":"°","speed":"kn"}}`
    /// or `{"moving":false}`. Source: gpsd TPV `speed` (m/s) and `track` (degrees true) of the
    /// fixes, smoothed over time with a hysteresis between moving and stopped (the daemon's
    /// `MotionTracker`). A reader of rounded positions (`PublicPrecision=`, the journal, MQTT)
    /// gets `moving` alone: a speed and a course beside a coarse position would let it follow the
    /// machine. Absent while the position is not a current GPS fix, or its fixes have no speed.
    public struct Motion: Sendable, Equatable, Codable {
        /// The units of ``speed`` and ``course``.
        public struct Units: Sendable, Equatable, Codable {
            /// `km/h`, `m/s`, `mph` or `kn`: `WindSpeedUnit=`'s, knots when that is `bft` (a
            /// force is for wind only; ``UnitPreferences/otherSpeeds``).
            public var speed: String
            /// `°` (degrees true, clockwise from north).
            public var course: String

            public init(speed: String, course: String = "°") {
                self.speed = speed
                self.course = course
            }
        }

        /// Whether the machine moves (the smoothed speed rose above the start threshold and has
        /// not fallen below the stop threshold since).
        public var moving: Bool
        /// Smoothed speed over ground in ``Units/speed``, to 0.1; only while ``moving``.
        public var speed: Double?
        /// Smoothed course over ground, whole degrees true 0–359; only while ``moving`` (at rest
        /// the course is noise) and when the fixes report one.
        public var course: Double?
        /// Absent without ``speed`` and ``course``.
        public var units: Units?

        public init(moving: Bool, speed: Double? = nil, course: Double? = nil, units: Units? = nil) {
            self.moving = moving
            self.speed = speed
            self.course = course
            self.units = units
        }

        /// What a reader of rounded positions sees: ``moving`` alone.
        public var movingOnly: Motion { Motion(moving: moving) }
    }
}
