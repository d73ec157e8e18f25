import WundercastProtocol
import WundercastPlaces

extension PlaceError {
    /// The socket's error code: `no-such-place`, or `geocoding-unavailable` (try again later)
    /// for a failed online lookup or an unreadable table.
    public var code: SocketProtocol.ErrorCode {
        switch self {
        case .noSuchPlace: .noSuchPlace
        case .geocodingUnavailable, .tableUnavailable: .geocodingUnavailable
        }
    }
}
