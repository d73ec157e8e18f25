import CSystemd

/// Tells the service manager about the daemon's state with `sd_notify` (`Type=notify`).
///
/// Every call reads `NOTIFY_SOCKET` afresh; when it is unset (not started by systemd) nothing
/// is sent and the call returns `false`. systemd 252 has neither `Type=notify-reload` nor
/// `MONOTONIC_USEC=` (PITFALLS): on SIGHUP send ``reloading()``, reload, then ``ready(status:)``.
public struct ServiceNotifier: Sendable {
    public init() {}

    /// `READY=1`, and `STATUS=` when given: start-up finished (or a reload did).
    @discardableResult
    public func ready(status: String? = nil) throws(SystemdError) -> Bool {
        try self.send([("READY", "1")] + (status.map { [("STATUS", $0)] } ?? []))
    }

    /// `STATUS=text`: one line for `systemctl status`. Newlines become spaces.
    @discardableResult
    public func status(_ text: String) throws(SystemdError) -> Bool {
        try self.send([("STATUS", text)])
    }

    /// `RELOADING=1`: a reload started; send ``ready(status:)`` when it is done.
    @discardableResult
    public func reloading() throws(SystemdError) -> Bool {
        try self.send([("RELOADING", "1")])
    }

    /// `STOPPING=1`: shutdown started.
    @discardableResult
    public func stopping() throws(SystemdError) -> Bool {
        try self.send([("STOPPING", "1")])
    }

    /// `WATCHDOG=1`: the keep-alive ping; send it at half of ``watchdogInterval``.
    @discardableResult
    public func watchdog() throws(SystemdError) -> Bool {
        try self.send([("WATCHDOG", "1")])
    }

    /// `EXTEND_TIMEOUT_USEC=`: asks for `duration` more before the start, reload or stop
    /// timeout fires (for a slow start, e.g. waiting on gpsd).
    @discardableResult
    public func extendTimeout(by duration: Duration) throws(SystemdError) -> Bool {
        try self.send([("EXTEND_TIMEOUT_USEC", String(Self.microseconds(duration)))])
    }

    /// Sends `assignments` as one datagram of `NAME=value` lines.
    /// - Returns: `true` when sent, `false` when `NOTIFY_SOCKET` is unset.
    /// - Throws: the errno of `sd_notify`, e.g. `ECONNREFUSED` when nobody listens.
    @discardableResult
    public func send(_ assignments: [(String, String)]) throws(SystemdError) -> Bool {
        let result = sd_notify(0, Self.message(assignments))
        if result < 0 { throw SystemdError(function: "sd_notify", errno: -result) }
        return result > 0
    }

    /// The watchdog timeout systemd set (`WatchdogSec=`, via `WATCHDOG_USEC` and
    /// `WATCHDOG_PID`), or `nil` when the watchdog is off or meant for another process.
    /// Ping with ``watchdog()`` at half of it.
    public var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    /// The `sd_notify` state string: `NAME=value` lines joined by `\n`. A newline inside a
    /// value would end the assignment and start a bogus one, so it becomes a space.
    static func message(_ assignments: [(String, String)]) -> String {
        assignments.map { name, value in
            name + "=" + String(value.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" ? " " : $0 })
        }.joined(separator: "\n")
    }

    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? .max : whole + attoseconds / 1_000_000_000_000
    }
}
