import Foundation
import Testing
import WundercastTestSupport

/// Signals are never lost: a SIGTERM sent right after `READY=1` stops the daemon cleanly
/// every time (it used to be missed in 1 start out of 10–15; PITFALLS).
@Suite struct SignalDeliveryTests {
    @Test func sigtermRightAfterReadyStopsTheDaemonEveryTime() async throws {
        for round in 1...20 {
            // Returns as soon as the daemon has sent READY=1.
            let daemon = try await DaemonProcess(configuration: "[Location]\nAuthorization=denied\n")
            daemon.signal(SIGTERM)
            // One SIGTERM only: a lost one shows as a daemon still running when the wait ends.
            let status = try await daemon.exited(timeout: .seconds(20))
            #expect(status == 0, "round \(round): exit status \(status); log: \(daemon.log)")
        }
    }
}
