import WundercastTestSupport

// The datagram socket lives in WundercastTestSupport (the integration tests use it too);
// these names keep the files of this target as they were.

typealias DatagramSocket = WundercastTestSupport.DatagramSocket

/// A fresh, empty directory under `/tmp` (short enough for `sun_path`).
func temporaryDirectory() throws -> String {
    try DatagramSocket.temporaryDirectory()
}
