#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel
import WundercastProtocol

/// A `WEATHER` line encoded once, with its two `ageSeconds` members left as slots: sending it
/// writes the bytes around the slots and the ages as digits, without encoding the object again
/// and without allocating (the ages are the only members that change between changes).
///
/// The bytes are exactly ``WundercastProtocol/SocketProtocol/line(_:)`` of
/// ``WundercastModel/WeatherState/stamped(now:uptime:)`` (a test checks it for many states).
struct EncodedState {
    /// The state as encoded (without ages).
    let state: WeatherState
    /// The line with the age digits left out; `nil` when the slots were not found (never
    /// seen: then each send encodes the stamped state in full).
    private let bytes: [UInt8]?
    /// What an age counts from: the moment by the wall clock and by the monotonic clock, or an
    /// age given already (``WundercastModel/WeatherState/age(since:_:given:now:uptime:)``).
    struct Since {
        var wall: Date?
        var uptime: Duration?
        var given: Int?
        var isEmpty: Bool { wall == nil && uptime == nil && given == nil }
    }

    /// Where the age digits go in ``bytes``, in order, and what each age counts from.
    private let slots: [(offset: Int, since: Since)]

    /// Values no real age takes, written in the slots to find them in the encoded bytes.
    private static let fetchedMarker = 8_796_093_022_208_011
    private static let receivedMarker = 8_796_093_022_208_022

    init(_ state: WeatherState) {
        self.state = state
        var probe = state
        // No weather age while it is unknown (``WundercastModel/WeatherState/ageUnknown``).
        let fetched =
            state.ageUnknown == true
            ? Since() : Since(wall: state.fetchedAt, uptime: state.fetchedUptime, given: state.ageSeconds)
        let received = Since(
            wall: state.location?.receivedAt, uptime: state.location?.receivedUptime,
            given: state.location?.ageSeconds)
        probe.ageSeconds = fetched.isEmpty ? nil : Self.fetchedMarker
        if state.location != nil { probe.location?.ageSeconds = received.isEmpty ? nil : Self.receivedMarker }
        var encoded = SocketProtocol.line(probe)
        var found: [(offset: Int, since: Since)] = []
        var complete = true
        for (marker, since) in [(Self.fetchedMarker, fetched), (Self.receivedMarker, received)] {
            guard !since.isEmpty else { continue }
            let digits = Array(#""ageSeconds":\#(marker)"#.utf8)
            guard let start = Self.firstIndex(of: digits, in: encoded) else {
                complete = false
                break
            }
            let offset = start + digits.count - String(marker).utf8.count
            encoded.removeSubrange(offset..<(start + digits.count))
            // A slot removed earlier in the bytes moves the later ones: keep offsets in order.
            for i in found.indices where found[i].offset > offset {
                found[i].offset -= digits.count - (offset - start)
            }
            found.append((offset, since))
        }
        found.sort { $0.offset < $1.offset }
        bytes = complete ? encoded : nil
        slots = complete ? found : []
    }

    /// Appends the line stamped for wall-clock `now` and monotonic `uptime`
    /// (``WundercastModel/WeatherState/stamped(now:uptime:)``) to `output`: no allocation once
    /// `output` has the capacity.
    func write(into output: inout [UInt8], now: Date, uptime: Duration? = nil) {
        guard let bytes else {
            output.append(contentsOf: SocketProtocol.line(state.stamped(now: now, uptime: uptime)))
            return
        }
        var from = 0
        bytes.withUnsafeBufferPointer { all in
            for slot in slots {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: all[from..<slot.offset]))
                let since = slot.since
                let age = WeatherState.age(
                    since: since.wall, since.uptime, given: since.given, now: now, uptime: uptime)
                Self.appendDecimal(age ?? 0, to: &output)
                from = slot.offset
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: all[from...]))
        }
    }

    /// The line stamped for `now` and `uptime`, as a new array (one per broadcast, shared by all
    /// watchers).
    func line(now: Date, uptime: Duration? = nil) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes?.count ?? 1024) + 24)
        write(into: &output, now: now, uptime: uptime)
        return output
    }

    /// Appends the decimal digits of `value` (≥ 0) without an intermediate string.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let start = output.count
        for _ in 0..<count { output.append(UInt8(ascii: "0")) }
        var v = value
        var i = start + count - 1
        while i >= start {
            output[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            i -= 1
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count, let first = needle.first else { return nil }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// The current state of each reader class, encoded once per change (``EncodedState``), with
/// change counters that watchers compare against what they were sent.
struct StateCache {
    struct Entry {
        var encoded: EncodedState
        /// Increases with every change of the state.
        var generation: UInt64
        /// Increases only when the weather, status or error changes (`watch weather`).
        var weatherGeneration: UInt64
    }
    private(set) var precise: Entry
    private(set) var `public`: Entry

    init(_ views: StateViews) {
        precise = Entry(encoded: EncodedState(views.precise), generation: 1, weatherGeneration: 1)
        self.public = Entry(encoded: EncodedState(views.public), generation: 1, weatherGeneration: 1)
    }

    subscript(_ reader: ReaderClass) -> Entry {
        switch reader {
        case .precise: precise
        case .public: self.public
        }
    }

    /// Takes `state` as the current one for `reader`; encodes it only when it changed.
    mutating func update(_ state: WeatherState, for reader: ReaderClass) {
        switch reader {
        case .precise: Self.update(&precise, state)
        case .public: Self.update(&self.public, state)
        }
    }

    mutating func update(_ views: StateViews) {
        Self.update(&precise, views.precise)
        Self.update(&self.public, views.public)
    }

    private static func update(_ entry: inout Entry, _ state: WeatherState) {
        let old = entry.encoded.state
        guard old != state else { return }
        // The alerts in force and whether their source answers are weather too (not the time
        // of its last answer).
        if old.status != state.status || old.weather != state.weather || old.error != state.error
            || old.alerts?.items != state.alerts?.items || old.alerts?.status != state.alerts?.status
        {
            entry.weatherGeneration += 1
        }
        entry.generation += 1
        entry.encoded = EncodedState(state)
    }
}
