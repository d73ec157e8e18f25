/// Who reads the socket, as far as positions go: `precise` readers (root, the daemon's user,
/// members of `[Socket] PreciseGroup=`) get positions at the provider's `Precision=`; `public`
/// readers get them rounded to `[Socket] PublicPrecision=`, with the nearest place's distance
/// computed from the rounded position in whole kilometres.
public enum ReaderClass: String, Sendable, Equatable, CaseIterable {
    case precise
    case `public`
}

/// The daemon's state as each reader class sees it; the socket encodes each once per change.
public struct StateViews: Sendable, Equatable {
    public var precise: WeatherState
    public var `public`: WeatherState
    public init(precise: WeatherState, public publicView: WeatherState) {
        self.precise = precise
        self.public = publicView
    }
    /// Both classes see the same state (no position in it, or tests).
    public init(_ state: WeatherState) { self.init(precise: state, public: state) }

    public subscript(_ reader: ReaderClass) -> WeatherState {
        switch reader {
        case .precise: precise
        case .public: self.public
        }
    }
}
