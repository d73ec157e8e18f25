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
/// ``WundercastModel/WeatherState/stamped(now:)`` (a test checks it for many states).
struct EncodedState {
    /// The state as encoded (without ages).
    let state: WeatherState
    /// The line with the age digits left out; `nil` when the slots were not found (never
    /// seen: then each send encodes the stamped state in full).
    private let bytes: [UInt8]?
    /// Where the age digits go in ``bytes``, in order, and the time each age counts from.
    private let slots: [(offset: Int, since: Date)]

    /// Values no real age takes, written in the slots to find them in the encoded bytes.
    private static let fetchedMarker = 8_796_093_022_208_011
    private static let receivedMarker = 8_796_093_022_208_022

    init(_ state: WeatherState) {
        self.state = state
        var probe = state
        // No weather age while it is unknown (``WundercastModel/WeatherState/ageUnknown``).
        let fetchedAt = state.ageUnknown == true ? nil : state.fetchedAt
        probe.ageSeconds = fetchedAt == nil ? nil : Self.fetchedMarker
        if probe.location?.receivedAt != nil { probe.location?.ageSeconds = Self.receivedMarker }
        var encoded = SocketProtocol.line(probe)
        var found: [(offset: Int, since: Date)] = []
        var complete = true
        for (marker, since) in [
            (Self.fetchedMarker, fetchedAt), (Self.receivedMarker, state.location?.receivedAt),
        ] {
            guard let since else { continue }
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

    /// Appends the line stamped for `now` (``WundercastModel/WeatherState/stamped(now:)``) to
    /// `output`: no allocation once `output` has the capacity.
    func write(into output: inout [UInt8], now: Date) {
        guard let bytes else {
            output.append(contentsOf: SocketProtocol.line(state.stamped(now: now)))
            return
        }
        var from = 0
        bytes.withUnsafeBufferPointer { all in
            for slot in slots {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: all[from..<slot.offset]))
                Self.appendDecimal(max(0, Int(now.timeIntervalSince(slot.since).rounded(.down))), to: &output)
                from = slot.offset
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: all[from...]))
        }
    }

    /// The line stamped for `now`, as a new array (one per broadcast, shared by all watchers).
    func line(now: Date) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes?.count ?? 1024) + 24)
        write(into: &output, now: now)
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
        if old.status != state.status || old.weather != state.weather || old.error != state.error {
            entry.weatherGeneration += 1
        }
        entry.generation += 1
        entry.encoded = EncodedState(state)
    }
}
