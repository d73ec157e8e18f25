import CSystemd
import Synchronization
import WundercastSupport
import WundercastPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// Listens for logind's `PrepareForSleep(b)` signal (`org.freedesktop.login1.Manager` at
/// `/org/freedesktop/login1`, sent by `org.freedesktop.login1`) on the system bus, through
/// libsystemd's sd-bus, on an ``EventLoop``: `PrepareForSleep(false)` means the machine
/// resumed.
///
/// The bus is `sd_bus_open_system`'s: `$DBUS_SYSTEM_BUS_ADDRESS` when set (tests point it at a
/// private `dbus-daemon`), else `unix:path=/run/dbus/system_bus_socket`. Every sd-bus call
/// runs on the loop's thread, and none waits for the broker: the connection and its
/// authentication go on as the loop processes the bus, the subscription (`AddMatch`) is sent
/// with `sd_bus_match_signal_async` and confirmed when the broker answers (then
/// ``isSubscribed`` is true and "watching logind's PrepareForSleep" is logged at debug). A
/// broker that accepts the connection and never answers therefore never holds up the loop
/// (the socket server's). `onResume` runs on the loop; `onEnd` too, once, when the bus
/// connection ends (the broker restarted) or the broker refuses the subscription.
/// ``close()`` (not on the loop's thread) ends it.
// `@unchecked Sendable`: sd-bus's C pointers (`sd_bus *`, `sd_bus_slot *`), touched on the loop only.
public final class SleepMonitor: @unchecked Sendable {
    private let loop: EventLoop
    private let onResume: @Sendable () -> Void
    private let onEnd: @Sendable (String) -> Void
    private let logger: Logger
    private let subscribed = Atomic(false)
    // The loop's thread only:
    private var bus: OpaquePointer?
    private var slot: OpaquePointer?
    private var registration: EventLoop.Registration?
    /// Why the connection must end, found by a callback (acted on after `sd_bus_process`).
    private var ending: String?

    /// Connects and subscribes (on `loop`, without waiting for the broker; `timeout` bounds
    /// each method call's wait for its answer, counted as the loop processes the bus).
    /// - Throws: ``SystemdError`` when there is no system bus (`ENOENT`: no socket) or the
    ///   subscription cannot be sent; nothing is left open then.
    public init(
        loop: EventLoop, timeout: Duration = .seconds(5), logger: Logger = .discard,
        onResume: @escaping @Sendable () -> Void, onEnd: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(SystemdError) {
        self.loop = loop
        self.onResume = onResume
        self.onEnd = onEnd
        self.logger = logger
        let failure: SystemdError? = await loop.perform { [self] in self.connect(timeout: timeout) }
        if let failure { throw failure }
    }

    /// Whether the broker confirmed the subscription.
    public var isSubscribed: Bool { subscribed.load(ordering: .acquiring) }

    /// Unsubscribes and closes the connection, on the loop (returns at once). Idempotent.
    public func close() {
        if !loop.post({ [self] in disconnect() }) { disconnect() }
    }

    private func connect(timeout: Duration) -> SystemdError? {
        var opened: OpaquePointer?
        var result = sd_bus_open_system(&opened)  // a non-blocking connect; authentication is queued
        guard result >= 0, let opened else { return SystemdError(function: "sd_bus_open_system", errno: -result) }
        bus = opened
        let microseconds = UInt64(timeout.components.seconds) * 1_000_000
        _ = sd_bus_set_method_call_timeout(opened, microseconds)
        let me = Unmanaged.passUnretained(self).toOpaque()
        result = sd_bus_match_signal_async(
            opened, &slot, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
            "PrepareForSleep",
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                var sleeping: Int32 = 0
                guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &sleeping) >= 0 else { return 0 }
                Unmanaged<SleepMonitor>.fromOpaque(userdata).takeUnretainedValue().prepareForSleep(sleeping != 0)
                return 0
            },
            { reply, userdata, _ in
                guard let reply, let userdata else { return 0 }
                Unmanaged<SleepMonitor>.fromOpaque(userdata).takeUnretainedValue().subscriptionAnswered(reply)
                return 0
            }, me)
        guard result >= 0 else {
            disconnect()
            return SystemdError(function: "sd_bus_match_signal_async", errno: -result)
        }
        let fd = sd_bus_get_fd(opened)
        do {
            registration = try loop.register(fd, for: events()) { [self] _ in process() }
        } catch {
            disconnect()
            return SystemdError(function: "epoll_ctl", errno: error.code)
        }
        return nil
    }

    /// The broker's answer to `AddMatch` (or sd-bus's error when the call failed).
    private func subscriptionAnswered(_ reply: OpaquePointer) {
        guard let error = sd_bus_message_get_error(reply), sd_bus_error_is_set(error) != 0 else {
            subscribed.store(true, ordering: .releasing)
            logger.debug("watching logind's PrepareForSleep on the system bus")
            return
        }
        let name = error.pointee.name.map { String(cString: $0) } ?? "an error"
        let failure = SystemdError(function: "AddMatch", errno: sd_bus_message_get_errno(reply))
        ending = "the broker refused the subscription: \(UntrustedText.sanitized(name, limit: 200)), \(failure)"
    }

    private func prepareForSleep(_ sleeping: Bool) {
        if sleeping {
            logger.debug("logind: the machine is going to sleep")
        } else {
            onResume()
        }
    }

    /// Handles what the connection has (signals, the broker's replies) until nothing is left.
    private func process() {
        guard let bus else { return }
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 { ending = "\(SystemdError(function: "sd_bus_process", errno: -result))" }
            if let reason = ending {
                ending = nil
                disconnect()
                onEnd(reason)
                return
            }
            if result == 0 { break }
        }
        if let registration { loop.modify(registration, for: events()) }
    }

    /// What the connection waits for now (it writes only while a message is queued).
    private func events() -> EventLoop.Events {
        guard let bus else { return [] }
        let wanted = sd_bus_get_events(bus)
        return wanted > 0 && Int16(wanted) & Int16(POLLOUT) != 0 ? [.readable, .writable] : .readable
    }

    private func disconnect() {
        if let registration { loop.unregister(registration) }
        registration = nil
        if let slot { _ = sd_bus_slot_unref(slot) }
        slot = nil
        // Not sd_bus_flush_close_unref: flushing waits (up to 90 s) for a broker that never answers.
        if let bus { _ = sd_bus_close_unref(bus) }
        bus = nil
    }
}
