import Testing
@testable import WundercastSystemd

#if canImport(Glibc)
import Glibc
#endif

@Test(arguments: [
    ([("READY", "1")], "READY=1"),
    ([("READY", "1"), ("STATUS", "Serving 2 readers")], "READY=1\nSTATUS=Serving 2 readers"),
    ([("STATUS", "fetch failed:\nHTTP 503\r\nretrying")], "STATUS=fetch failed: HTTP 503 retrying"),
    ([("STATUS", "")], "STATUS="),
])
func notifyMessage(assignments: [(String, String)], expected: String) {
    #expect(ServiceNotifier.message(assignments) == expected)
}

@Test func microsecondsOfDurations() {
    #expect(ServiceNotifier.microseconds(.seconds(30)) == 30_000_000)
    #expect(ServiceNotifier.microseconds(.milliseconds(1500)) == 1_500_000)
    #expect(ServiceNotifier.microseconds(.nanoseconds(1999)) == 1)
    #expect(ServiceNotifier.microseconds(.seconds(-1)) == 0)
    #expect(ServiceNotifier.microseconds(.seconds(Int64.max)) == .max)
}

extension ProcessEnvironmentTests {
    /// `sd_notify` against a datagram socket bound by the test, as systemd's would be.
    @Suite struct ServiceNotifierTests {
        @Test func sendsExactStates() throws {
            let directory = try temporaryDirectory()
            defer { rmdir(directory) }
            let socket = try DatagramSocket(path: directory + "/notify")
            defer { socket.close() }
            let notifier = ServiceNotifier()

            let sent = try withEnvironment(["NOTIFY_SOCKET": socket.path]) { () throws -> [Bool] in
                [
                    try notifier.ready(status: "Weather for 52.52,13.40"),
                    try notifier.status("Fetching"),
                    try notifier.reloading(),
                    try notifier.ready(),
                    try notifier.watchdog(),
                    try notifier.extendTimeout(by: .seconds(5)),
                    try notifier.stopping(),
                ]
            }

            #expect(sent == Array(repeating: true, count: 7))
            let datagrams = socket.receiveAll().map { String(decoding: $0, as: UTF8.self) }
            #expect(
                datagrams == [
                    "READY=1\nSTATUS=Weather for 52.52,13.40",
                    "STATUS=Fetching",
                    "RELOADING=1",
                    "READY=1",
                    "WATCHDOG=1",
                    "EXTEND_TIMEOUT_USEC=5000000",
                    "STOPPING=1",
                ])
        }

        /// unset_environment=0: the variable stays for the next call.
        @Test func keepsNotifySocketForLaterCalls() throws {
            let directory = try temporaryDirectory()
            defer { rmdir(directory) }
            let socket = try DatagramSocket(path: directory + "/notify")
            defer { socket.close() }
            try withEnvironment(["NOTIFY_SOCKET": socket.path]) {
                try ServiceNotifier().watchdog()
                #expect(environment("NOTIFY_SOCKET") == socket.path)
            }
        }

        @Test func withoutNotifySocketNothingIsSent() throws {
            let directory = try temporaryDirectory()
            defer { rmdir(directory) }
            let socket = try DatagramSocket(path: directory + "/notify")
            defer { socket.close() }
            let notifier = ServiceNotifier()

            let sent = try withEnvironment(["NOTIFY_SOCKET": nil]) { () throws -> [Bool] in
                [
                    try notifier.ready(status: "up"), try notifier.status("x"), try notifier.reloading(),
                    try notifier.watchdog(), try notifier.stopping(),
                ]
            }

            #expect(sent == Array(repeating: false, count: 5))
            #expect(socket.receive() == nil)
        }

        @Test func unreachableNotifySocketThrows() throws {
            let directory = try temporaryDirectory()
            defer { rmdir(directory) }
            withEnvironment(["NOTIFY_SOCKET": directory + "/nobody-listens"]) {
                #expect {
                    try ServiceNotifier().ready()
                } throws: { error in
                    (error as? SystemdError)?.function == "sd_notify"
                }
            }
        }

        @Test func watchdogIntervalFromEnvironment() {
            let pid = String(getpid())
            withEnvironment(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": pid]) {
                #expect(ServiceNotifier().watchdogInterval == .seconds(30))
                // unset_environment=0: still there for the next look.
                #expect(environment("WATCHDOG_USEC") == "30000000")
            }
            withEnvironment(["WATCHDOG_USEC": "2500000", "WATCHDOG_PID": nil]) {
                #expect(ServiceNotifier().watchdogInterval == .milliseconds(2500))
            }
        }

        @Test func noWatchdogInterval() {
            let otherPID = String(getpid() == 1 ? 2 : 1)
            withEnvironment(["WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]) {
                #expect(ServiceNotifier().watchdogInterval == nil)
            }
            withEnvironment(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": otherPID]) {
                #expect(ServiceNotifier().watchdogInterval == nil)
            }
            withEnvironment(["WATCHDOG_USEC": "soon", "WATCHDOG_PID": nil]) {
                #expect(ServiceNotifier().watchdogInterval == nil)
            }
        }
    }
}
