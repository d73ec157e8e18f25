import WundercastSupport
import WundercastModel

/// Who reads the socket, as far as positions go: `precise` readers (root, the daemon's user,
/// members of `[Socket] PreciseGroup=`) get positions at the provider's `Precision=`; `public`
/// readers get them rounded to `[Socket] PublicPrecision=`, with the place named for the
/// rounded position (its cell) only, without distance and bearing.
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

extension StateViews {
    /// Both views of `state`: the precise one with the nearest place (distance and bearing), the
    /// public one with the position rounded to `publicPrecision` decimals and the place named for
    /// that rounded position alone, name only (`inCell`: the most populous city of its cell,
    /// else the nearest; a place computed from the precise position, or a distance, would tell
    /// more than the cell); the public error message has every number of the provider's text
    /// hidden (``UntrustedText/hidingNumbers(_:)``); of the motion it keeps `moving` alone
    /// (``WeatherState/Motion/movingOnly``); the sea state's cell (`weather.marine.cell`) is
    /// rounded like the position; the days' sunrise and sunset are the sun's at the rounded
    /// position (``Forecast/withSunTimes(at:)``). `nearest` gives the city nearest to a
    /// coordinate (``PlaceFinder/nearest``), `inCell` the place of a rounded position (``PlaceFinder/inCell``),
    /// `moon` the Moon over a coordinate (each view's at its own position: the public one's at the
    /// rounded position).
    public static func make(
        _ state: WeatherState, publicPrecision: Int, nearest: (Coordinate) -> WeatherState.Place?,
        inCell: (Coordinate, _ decimals: Int) -> WeatherState.Place?, moon: (Coordinate) -> MoonDay? = { _ in nil }
    ) -> StateViews {
        guard var location = state.location else { return StateViews(state) }
        var precise = state
        let exact = Coordinate(latitude: location.latitude, longitude: location.longitude)
        precise.location?.place = nearest(exact)
        precise.moon = moon(exact)
        let rounded = exact.rounded(toDecimals: publicPrecision)
        location.latitude = rounded.latitude
        location.longitude = rounded.longitude
        location.place = inCell(rounded, publicPrecision)
        // Speed and course beside a coarse position would let the reader follow the machine.
        location.motion = location.motion?.movingOnly
        var publicView = state
        publicView.location = location
        publicView.moon = moon(rounded)
        // Sunrise and sunset to the second at the precise position would tell it: the public
        // view's are the sun's at the rounded position.
        publicView.weather?.forecast = state.weather?.forecast?.withSunTimes(at: rounded)
        // The sea state's 0.25° cell, no finer than the public position.
        if let cell = state.weather?.marine?.cell {
            let shown = Coordinate(latitude: cell.latitude, longitude: cell.longitude).rounded(
                toDecimals: publicPrecision)
            publicView.weather?.marine?.cell = .init(latitude: shown.latitude, longitude: shown.longitude)
        }
        // Provider text may echo the request's coordinates (a URL in an error message), in any form.
        if let error = state.error {
            publicView.error?.message = UntrustedText.hidingNumbers(error.message)
        }
        return StateViews(precise: precise, public: publicView)
    }

    /// The daemon's position as a reader of class `reader` may see it (for `around`).
    public func position(for reader: ReaderClass) -> Coordinate? {
        self[reader].location.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
    }
}
