import Foundation
import Testing
import WundercastTestSupport

/// Signals are never lost: a SIGTERM sent right after `READY=1` stops the daemon cleanly
/// every time (it used to be missed in 1 start out of 10–15; PITFALLS).
@Suite struct SignalDeliveryTests {
    @Test func sigtermRightAfterReadyStopsTheDaemonEveryTime() throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for round in 1...20 {
            let notifyPath = directory + "/notify-\(round)"
            let notify = try DatagramSocket(path: notifyPath)
            defer { notify.close() }
            let daemon = try DaemonProcess(
                configuration: "[Location]\nAuthorization=denied\n", environment: ["NOTIFY_SOCKET": notifyPath],
                waitForSocket: false)
            let deadline = Date().addingTimeInterval(20)
            var ready = false
            while !ready && Date() < deadline && daemon.isRunning {
                if let datagram = notify.receive() {
                    ready = String(decoding: datagram, as: UTF8.self).contains("READY=1")
                } else {
                    usleep(1_000)
                }
            }
            try #require(ready, "round \(round): no READY=1; log: \(daemon.log)")
            kill(daemon.pid, SIGTERM)
            let stopDeadline = Date().addingTimeInterval(5)
            while daemon.isRunning && Date() < stopDeadline { usleep(2_000) }
            #expect(!daemon.isRunning, "round \(round): still running 5 s after SIGTERM; log: \(daemon.log)")
            // Already exited: stop() only reports the status (it signals only a running daemon).
            let status = daemon.stop()
            #expect(status == 0, "round \(round): exit status \(status); log: \(daemon.log)")
        }
    }
}
