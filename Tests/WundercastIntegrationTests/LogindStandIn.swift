import CSystemd
import Foundation
import WundercastTestSupport

/// A private D-Bus broker (Debian's `dbus-daemon --session`) on a socket in a temporary
/// directory, standing in for the system bus: the daemon is pointed at it with
/// `DBUS_SYSTEM_BUS_ADDRESS`. Ends with the object.
final class PrivateBus: @unchecked Sendable {
    let address: String
    private let child: ChildProcess
    private let directory: String

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") }

    init() async throws {
        directory = try DatagramSocket.temporaryDirectory()
        child = try ChildProcess([
            "/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1",
            "--address=unix:path=\(directory)/bus",
        ])
        address = try await child.output.waitFor("the broker's address") { $0.hasPrefix("unix:") }
    }

    deinit {
        let directory = self.directory
        child.terminateInBackground { try? FileManager.default.removeItem(atPath: directory) }
    }
}

/// logind's part on a ``PrivateBus``: a connection that owns `org.freedesktop.login1` (or,
/// as an impostor, does not) and sends `PrepareForSleep(b)` on `/org/freedesktop/login1`.
/// sd-bus calls, made blocking on the caller's thread (each a local round trip).
final class LogindStandIn {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var bus: OpaquePointer?

    init(address: String, ownsName: Bool = true) throws {
        try check(sd_bus_new(&bus), "sd_bus_new")
        try check(sd_bus_set_address(bus, address), "sd_bus_set_address")
        try check(sd_bus_set_bus_client(bus, 1), "sd_bus_set_bus_client")
        try check(sd_bus_start(bus), "sd_bus_start")
        if ownsName { try check(sd_bus_request_name(bus, "org.freedesktop.login1", 0), "sd_bus_request_name") }
    }

    func prepareForSleep(_ sleeping: Bool) throws {
        var message: OpaquePointer?
        try check(
            sd_bus_message_new_signal(
                bus, &message, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep"),
            "sd_bus_message_new_signal")
        defer { sd_bus_message_unref(message) }
        var value: Int32 = sleeping ? 1 : 0
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &value), "append")
        try check(sd_bus_send(bus, message, nil), "sd_bus_send")
        try check(sd_bus_flush(bus), "sd_bus_flush")
    }

    deinit { sd_bus_flush_close_unref(bus) }

    private func check(_ result: Int32, _ call: String) throws {
        if result < 0 { throw Failure(description: "\(call): \(String(cString: strerror(-result)))") }
    }
}
