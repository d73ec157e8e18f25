import Foundation

/// A socket path in a fresh directory under `/tmp` (short enough for `sun_path`), removed with
/// its directory when this is released.
public final class TemporarySocketPath: Sendable {
    public let directory: String
    /// `<directory>/wc.sock`.
    public let path: String

    public init() throws {
        directory = try DatagramSocket.temporaryDirectory()
        path = directory + "/wc.sock"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
