import CGPS
import WundercastSupport
import WundercastModel
import WundercastPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// One client connection to gpsd: a non-blocking TCP socket connected by us (not by `gps_open`,
/// which blocks in DNS and `connect`: libgps 3.22 `netlib.c`), the lines gpsd sends, split here,
/// and the `gps_data_t` libgps's `gps_unpack` fills from each flat TPV line. Confined to the
/// reader's event loop (its owner, ``GPSDReader``, checks that); never blocks.
///
/// The phases (`closed → connecting → connected → streaming → closed`) are kept explicitly and
/// an out-of-phase call is a `preconditionFailure` naming the phase, as when this held a libgps
/// handle (PITFALLS, libgps: never touch a closed handle, never close twice).
///
/// Not `Sendable`: it is created, used and destroyed on one thread.
final class GPSDConnection {
    enum Phase: Equatable, CustomStringConvertible {
        /// No socket: only ``connect(to:)`` is allowed.
        case closed
        /// A non-blocking `connect` is under way: wait for the socket to be writable, then
        /// ``finishConnecting()``.
        case connecting
        /// Connected; no `?WATCH` sent yet.
        case connected
        /// `?WATCH={"enable":true,"json":true};` sent; reports arrive.
        case streaming

        var description: String {
            switch self {
            case .closed: "closed"
            case .connecting: "connecting"
            case .connected: "connected"
            case .streaming: "streaming"
            }
        }
    }

    /// What ``connect(to:)`` started.
    enum ConnectStep {
        /// Connected at once: ``startStreaming()`` next.
        case connected
        /// Wait until ``fd`` is writable, then ``finishConnecting()``.
        case inProgress
        /// No connection to this address; the socket (if any) is closed again.
        case failed(GPSDConnectionError)
    }

    /// What one ``read()`` produced.
    enum ReadResult {
        /// A complete line was read and unpacked.
        case message(Message)
        /// Only part of a line is buffered (or nothing). Wait on the descriptor again.
        case incomplete
        /// gpsd closed the connection, a socket error, or a line over ``maxLine``.
        case failed(reason: String)
    }

    /// The part of a report wundercast cares about.
    enum Message {
        /// A TPV whose read set `LATLON_SET`: the report, not yet judged.
        case position(TPVReport)
        /// A TPV without a position (no fix yet): proof that gpsd reads a receiver.
        case tpvWithoutPosition
        /// `{"class":"DEVICE",...,"activated":0}`: gpsd lost the receiver at `path`.
        case deviceDeactivated(path: String)
        /// A DEVICE report with an activation time: gpsd opened the receiver at `path`.
        case deviceActivated(path: String)
        /// Anything else (VERSION, WATCH, DEVICES, SKY, ...).
        case other
        /// A line that is not one JSON object: skipped, never given to libgps (see
        /// ``unpack(_:into:line:)``).
        case malformed
    }

    /// What `gps_stream(WATCH_ENABLE | WATCH_JSON)` sends: libgps 3.22 `gps_sock_stream`
    /// (`libgps_sock.c`) writes `?WATCH={"enable":true,"json":true};` and `gps_send` a newline
    /// (seen on the wire here).
    static let watchEnable = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [UInt8(ascii: "\n")]
    /// What `gps_stream(WATCH_DISABLE)` sends (JSON is implied when no format is given).
    static let watchDisable = Array(#"?WATCH={"enable":false,"json":false};"#.utf8) + [UInt8(ascii: "\n")]

    private(set) var phase: Phase = .closed
    /// The socket while not ``Phase/closed``.
    private(set) var fd: Int32 = -1
    /// The address of the socket while not ``Phase/closed`` (for errors).
    private var address: SocketAddress?

    /// `gps_data_t` is 24,496 bytes and Swift copies imported C structs by value (PITFALLS,
    /// libgps): it lives on the heap for the connection's lifetime and is only ever accessed
    /// through this pointer, never loaded whole.
    private let data: UnsafeMutablePointer<gps_data_t>

    /// The raw JSON line of the last read (as `gps_read`'s `message` buffer), for the class name,
    /// DEVICE `activated` and the text of TPV numbers, which libgps does not expose as fields.
    private let line: UnsafeMutablePointer<CChar>
    /// libgps's `GPS_JSON_RESPONSE_MAX` (gps.h, 3.22): a whole report fits, never cut.
    static let lineCapacity = 10240

    /// Bytes received from gpsd and not yet read as a line.
    private var received: [UInt8] = []
    /// One `recv` at a time lands here.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    /// The longest line kept, newline included: more than gpsd's largest report (9,216 bytes,
    /// PITFALLS); a longer line is not gpsd's.
    static let maxLine = 16 * 1024

    init() {
        data = .allocate(capacity: 1)
        Self.zero(data)
        line = .allocate(capacity: Self.lineCapacity)
        line.initialize(repeating: 0, count: Self.lineCapacity)
    }

    deinit {
        if phase != .closed { self.close() }
        data.deallocate()
        line.deinitialize(count: Self.lineCapacity)
        line.deallocate()
        chunk.deallocate()
    }

    /// Starts connecting to `address` without blocking (``WundercastPOSIX/TCPSocket/connect(nonBlocking:)``).
    /// On failure the connection stays closed, with libgps's reason for the same failure in
    /// `gps_open` (``GPSDConnectionError``).
    func connect(to address: SocketAddress) -> ConnectStep {
        guard phase == .closed else { preconditionFailure("connect on a connection that is \(phase)") }
        // A zero-initialised gps_data_t reads 0,0 (PITFALLS): start every connection from zero
        // so nothing of the previous one survives; the fix rules never accept it anyway.
        Self.zero(data)
        received.removeAll()
        do throws(Errno) {
            switch try TCPSocket.connect(nonBlocking: address) {
            case .connected(let fd):
                self.fd = fd
                self.address = address
                phase = .connected
                return .connected
            case .inProgress(let fd):
                self.fd = fd
                self.address = address
                phase = .connecting
                return .inProgress
            }
        } catch {
            return .failed(GPSDConnectionError(error))
        }
    }

    /// After ``fd`` became writable (or hung up): whether the connect succeeded. On failure the
    /// caller unregisters the socket, then ``close()``s it.
    func finishConnecting() -> Result<Void, GPSDConnectionError> {
        guard phase == .connecting, let address else {
            preconditionFailure("finishing a connect on a connection that is \(phase)")
        }
        do throws(Errno) {
            try TCPSocket.connectResult(fd, to: address)
            phase = .connected
            return .success(())
        } catch {
            return .failure(GPSDConnectionError(error))
        }
    }

    /// Sends `?WATCH={"enable":true,"json":true};` (``watchEnable``, what `gps_stream` sent).
    /// `false` when the write failed or did not take it whole (gpsd gone; a new socket's buffer
    /// always has room for it). `MSG_NOSIGNAL`: no SIGPIPE when gpsd has gone (PITFALLS).
    func startStreaming() -> Bool {
        guard phase == .connected else { preconditionFailure("?WATCH on a connection that is \(phase)") }
        guard case .done(Self.watchEnable.count)? = try? TCPSocket.send(fd, Self.watchEnable, subject: "gpsd socket")
        else { return false }
        phase = .streaming
        return true
    }

    /// Reads one report: the next complete line of what gpsd sent, receiving more bytes
    /// first (without blocking) when no complete line is buffered, and unpacks it
    /// (``unpack(_:into:line:)``).
    ///
    /// The lines are read here from the socket, not by `gps_read`: libgps 3.22 unpacks each line
    /// it reads, and its `gps_unpack` never returns on some lines (see ``unpack(_:into:line:)``).
    /// The buffer holds at most ``maxLine`` bytes: a longer line fails the connection, as
    /// one over libgps's buffer did in `gps_read`. Call again until ``ReadResult/incomplete``
    /// before waiting on the descriptor: lines already received are not seen by epoll.
    func read() -> ReadResult {
        guard phase == .streaming else { preconditionFailure("read on a connection that is \(phase)") }
        while true {
            if let end = received.firstIndex(of: UInt8(ascii: "\n")), end < Self.maxLine {
                let report = received[...end]
                defer { received.removeFirst(end + 1) }
                return .message(Self.unpack(report, into: data, line: line))
            }
            guard received.count < Self.maxLine else {
                return .failed(reason: "gpsd sent a line longer than \(Self.maxLine) bytes")
            }
            let outcome = Result { () throws(Errno) in
                try TCPSocket.receive(fd, into: chunk, subject: "gpsd socket")
            }
            switch outcome {
            case .failure(let error): return .failed(reason: error.description)
            case .success(.done(0)): return .failed(reason: "gpsd closed the connection")
            case .success(.done(let count)): received += UnsafeRawBufferPointer(rebasing: chunk.prefix(count))
            case .success(.wouldBlock): return .incomplete  // half a line buffered, or nothing
            }
        }
    }

    /// Ends the session politely: `?WATCH={"enable":false,"json":false};` (``watchDisable``:
    /// gpsd may power the receiver down) when streaming, without waiting, then closes. Does
    /// nothing when already closed.
    func release() {
        if phase == .streaming {
            // The result does not matter: the connection is closed next either way.
            _ = try? TCPSocket.send(fd, Self.watchDisable, subject: "gpsd socket")
        }
        if phase != .closed { self.close() }
    }

    /// Closes the socket, exactly once per connection (the caller has unregistered it).
    func close() {
        guard phase != .closed else { preconditionFailure("closing a connection that is already closed") }
        try? Descriptor.close(fd)
        fd = -1
        address = nil
        received.removeAll()
        phase = .closed
    }

    // MARK: - Reading the report

    /// Unpacks one report line: copied (NUL-terminated, cut to ``lineCapacity``) to `line`,
    /// a TPV also by `gps_unpack` into `data` (with `set` cleared first: `set` accumulates,
    /// PITFALLS), then judged by ``message(of:line:)``.
    ///
    /// A line that is not one JSON object is ``Message/malformed``. Of the rest only a TPV whose
    /// values are all plain (no array or object: gpsd's TPV has none) reaches libgps, the only
    /// report whose fields are read from `gps_data_t`: libgps 3.22's `gps_unpack` loops forever,
    /// at 100% CPU, on a line with junk where a member name is due before a known `"class"`
    /// (`{x"class":"TPV"}`), and on valid JSON with an array of objects where its tables expect
    /// none (`{"class":"TPV","a":[{"class":"TPV"}]}`, `{"devices":[{"class":"DEVICE"}]}`); found
    /// by `make fuzz`, Tests/Fixtures/fuzz.
    static func unpack(
        _ report: some Collection<UInt8>, into data: UnsafeMutablePointer<gps_data_t>, line: UnsafeMutablePointer<CChar>
    ) -> Message {
        data.pointee.set = 0
        line[0] = 0
        guard JSONLine.isObject(report) else { return .malformed }
        var text = report.map { CChar(bitPattern: $0) } + [0]
        text.withUnsafeMutableBufferPointer { text in
            _ = strncpy(line, text.baseAddress!, lineCapacity - 1)
            line[lineCapacity - 1] = 0
        }
        guard lineStarts(line, with: tpvPrefix) else { return message(of: data, line: line) }
        guard JSONLine.isObject(report, flat: true) else { return .malformed }
        text.withUnsafeMutableBufferPointer { text in _ = gps_unpack(text.baseAddress!, data) }
        return message(of: data, line: line)
    }

    private static let tpvPrefix = #"{"class":"TPV""#

    private static func lineStarts(_ line: UnsafePointer<CChar>, with prefix: String) -> Bool {
        prefix.withCString { strncmp(line, $0, strlen($0)) == 0 }
    }

    /// What one unpacked report is: `data` as `gps_read` (or `gps_unpack`) left it, with `set`
    /// cleared before, and `line` its raw JSON line (NUL-terminated).
    static func message(of data: UnsafeMutablePointer<gps_data_t>, line: UnsafePointer<CChar>) -> Message {
        if lineStarts(line, with: tpvPrefix) {
            return position(of: data, line: String(cString: line)).map(Message.position) ?? .tpvWithoutPosition
        }
        if lineStarts(line, with: #"{"class":"DEVICE""#) {
            let text = String(cString: line)
            // gpsd's text is outside text: bounded and without control characters where it
            // enters, before it reaches a state message, the journal or a bar.
            let path = stringValue(of: "path", in: text).map { UntrustedText.sanitized($0, limit: 100) } ?? "?"
            // libgps 3.22 does not set DEVICE_SET for `"activated":0` (a number where a time
            // string is expected; seen here), so read the line itself.
            return isDeactivation(text) ? .deviceDeactivated(path: path) : .deviceActivated(path: path)
        }
        return .other
    }

    /// The TPV report of this read, built only when this very read set LATLON_SET (`set`
    /// was cleared before it); fields gpsd did not report stay NaN, and so do numbers whose
    /// text in the line is not a JSON number (``reported(_:_:in:)``).
    private static func position(of data: UnsafeMutablePointer<gps_data_t>, line text: String) -> TPVReport? {
        guard data.pointee.set & cgps_latlon_set != 0 else { return nil }
        // Borrow the fix in place: `data.pointee` would copy 24 KB.
        guard let fix = data.pointer(to: \.fix) else { return nil }
        let time = fix.pointee.time
        // A report without "time" leaves fix.time at {0,0} (PITFALLS, libgps).
        let seconds = time.tv_sec == 0 && time.tv_nsec == 0 ? nil : Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        // Exactly 0,0 without a time is what a zeroed or defaulted record reads, not a receiver
        // (PITFALLS: Null Island, never publish 0,0 no receiver reported): no position. The
        // fault suite's "a TPV at Null Island without time" lie was published (issue 15).
        if fix.pointee.latitude == 0, fix.pointee.longitude == 0, seconds == nil { return nil }
        return TPVReport(
            latLonSet: true,
            mode: Int(fix.pointee.mode),
            // LATLON_SET says libgps read both: their text must be there too.
            latitude: Self.numberText(of: "lat", in: text) == nil ? .nan : fix.pointee.latitude,
            longitude: Self.numberText(of: "lon", in: text) == nil ? .nan : fix.pointee.longitude,
            time: seconds,
            eph: Self.reported(fix.pointee.eph, "eph", in: text),
            epx: Self.reported(fix.pointee.epx, "epx", in: text),
            epy: Self.reported(fix.pointee.epy, "epy", in: text),
            altitude: Self.reported(fix.pointee.altHAE, "altHAE", in: text),
            speed: Self.reported(fix.pointee.speed, "speed", in: text),
            track: Self.reported(fix.pointee.track, "track", in: text))
    }

    /// `value` as libgps read it for `key`, or NaN when the line has `key` with a value that is
    /// not a JSON number: libgps 3.22 reads `-Infinity`, `0x10` or `--1` as 0 (issue 14), and a
    /// 0 that no receiver reported must never be published (PITFALLS: Null Island).
    static func reported(_ value: Double, _ key: String, in line: String) -> Double {
        guard let raw = rawValue(of: key, in: line) else { return value }  // not in the line: libgps's NaN
        return isJSONNumber(raw) ? value : .nan
    }

    /// The text of `"key":NUMBER` in one gpsd JSON line when it is a JSON number (RFC 8259:
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), else `nil` (absent, or not a number).
    static func numberText(of key: String, in line: String) -> Substring? {
        rawValue(of: key, in: line).flatMap { isJSONNumber($0) ? $0 : nil }
    }

    /// The raw text after `"key":` up to the next `,`, `}` or space; an empty text (no number)
    /// when the key stands twice: libgps keeps the last value, our check would read the first
    /// (`"lon":11.5,"lon":--1` gave longitude 0; the hostile pass of issue 14).
    private static func rawValue(of key: String, in line: String) -> Substring? {
        let parts = line.split(separator: "\"\(key)\":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count < 3 else { return ""[...] }
        guard parts.count == 2 else { return nil }
        return parts[1].prefix { $0 != "," && $0 != "}" && $0 != " " }
    }

    /// Whether `text` is one JSON number, nothing else (RFC 8259, section 6).
    static func isJSONNumber(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// `"activated":0` — a number, not a time string (PITFALLS, libgps).
    static func isDeactivation(_ line: String) -> Bool {
        line.contains(#""activated":0,"#) || line.contains(#""activated":0}"#)
    }

    /// The string value of `"key":"..."` in one gpsd JSON line (values gpsd writes here
    /// contain no escaped quotes: device paths).
    static func stringValue(of key: String, in line: String) -> String? {
        let marker = "\"\(key)\":\""
        // The text after the first `"key":"` up to the next quote.
        let parts = line.split(separator: marker, maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let end = parts[1].firstIndex(of: "\"") else { return nil }
        return String(parts[1][..<end])
    }

    static func zero(_ data: UnsafeMutablePointer<gps_data_t>) {
        UnsafeMutableRawPointer(data).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
    }
}

/// Why a connection could not be made: libgps's negative `NL_*` code for the same failure in
/// `gps_open` (`netlib_connectsock`, libgps 3.22) and its text, which the stream and the journal
/// show as before; ``cause`` says what actually failed.
struct GPSDConnectionError: Error, Equatable {
    /// The negative `NL_*` code (e.g. -6 `NL_NOCONNECT`).
    let code: Int32
    /// `gps_errstr(code)`, e.g. "can't connect to host/port pair".
    let reason: String
    /// The system's word for it (`connect(127.0.0.1:2947): Connection refused`), for debug logs.
    let cause: String

    init(code: Int32, cause: String) {
        self.code = code
        reason = String(cString: gps_errstr(code))
        self.cause = cause
    }

    /// A failed `socket` is `NL_NOSOCK`, any other failure to connect `NL_NOCONNECT`.
    init(_ error: Errno) {
        self.init(code: error.call == "socket" ? NL_NOSOCK : NL_NOCONNECT, cause: error.description)
    }

    /// No connection to any address: `NL_NOCONNECT` ("can't connect to host/port pair").
    static func noConnect(_ cause: String) -> GPSDConnectionError {
        GPSDConnectionError(code: NL_NOCONNECT, cause: cause)
    }

    /// No address for the host: `NL_NOHOST` ("can't get host entry").
    static func noHost(_ cause: String) -> GPSDConnectionError {
        GPSDConnectionError(code: NL_NOHOST, cause: cause)
    }
}
