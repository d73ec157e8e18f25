import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Which fault campaign runs, from `$FAULTS`: `ci` (one scenario per finding and per fault class,
/// `make faults`) or `full` (every variant, `make faults-full`). Unset: the fault suites are
/// skipped (`make test` does not run them).
enum FaultCampaign {
    static let mode = ProcessInfo.processInfo.environment["FAULTS"] ?? ""
    static var isSelected: Bool { mode == "ci" || mode == "full" }
    static var isFull: Bool { mode == "full" }
    static let skipReason: Comment = "run by `make faults` (FAULTS=ci) or `make faults-full` (FAULTS=full)"

    /// All of `variants` in the full campaign, the first `ci` of them in the CI subset.
    static func pick<T>(_ variants: [T], ci: Int = 1) -> [T] { isFull ? variants : Array(variants.prefix(ci)) }

    /// `full` in the full campaign, else `ci`: how often a repeated fault is injected.
    static func count(ci: Int, full: Int) -> Int { isFull ? full : ci }
}

/// A scenario's world could not be set up (not a fault of the daemon).
struct FaultSetupError: Error, CustomStringConvertible {
    var description: String
}

/// The counts of one scenario, kept as it runs and written, when it ends, as one JSON line to
/// `$WUNDERCAST_FAULT_REPORT` (appended; `make faults` sums the lines into the one table:
/// `Tests/Tools/fault-table.sh`). Each problem counted is also an issue of the running test, so
/// the test fails with its text.
///
/// - crashes: the daemon exited (or died on a signal) while it should serve;
/// - hangs: `now` got no answer within the liveness deadline (5 s), or a bounded wait for the
///   daemon's exit ran out;
/// - untruthful: a state claims more than the daemon knows (fresh without a recent fix and recent
///   weather, a position gpsd did not report, a fix age younger than the last fix, an impossible
///   value), or a state was lost (no recovery after the fault ended);
/// - privilege: a public reader got what only precise readers may have;
/// - unsafe: a control character, or an 8-character piece of the API key, in any output.
final class FaultScenario: @unchecked Sendable {
    enum Count: String, CaseIterable {
        case faults, crashes, hangs, untruthful, privilege, unsafe
    }

    let name: String
    /// `gpsd`, `http`, `socket`, `process`, `secrets`, `clock`, `resources`.
    let faultClass: String
    private let lock = NSLock()
    private var counts: [Count: Int] = [:]
    private var finished = false

    init(_ faultClass: String, _ name: String) {
        self.faultClass = faultClass
        self.name = name
    }

    deinit { finish() }

    /// Counts `count` faults injected into the daemon's world.
    func injected(_ count: Int = 1) { add(.faults, count) }

    func crash(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        problem(.crashes, "crash: \(what)", sourceLocation)
    }

    func hang(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        problem(.hangs, "hang: \(what)", sourceLocation)
    }

    func untruthful(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        problem(.untruthful, "untruthful or lost state: \(what)", sourceLocation)
    }

    func privilege(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        problem(.privilege, "privilege failure: \(what)", sourceLocation)
    }

    func unsafe(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        problem(.unsafe, "unsafe output: \(what)", sourceLocation)
    }

    func value(_ count: Count) -> Int { lock.withLock { counts[count, default: 0] } }

    private func problem(_ count: Count, _ text: String, _ sourceLocation: SourceLocation) {
        add(count, 1)
        Issue.record(Comment(rawValue: "[\(faultClass): \(name)] \(text)"), sourceLocation: sourceLocation)
    }

    private func add(_ count: Count, _ amount: Int) { lock.withLock { counts[count, default: 0] += amount } }

    /// Writes this scenario's line to the report (once; `deinit` calls it too).
    func finish() {
        let line: [String: Any]? = lock.withLock {
            guard !finished else { return nil }
            finished = true
            var line: [String: Any] = ["scenario": name, "class": faultClass]
            for count in Count.allCases { line[count.rawValue] = counts[count, default: 0] }
            return line
        }
        guard let line, let path = ProcessInfo.processInfo.environment["WUNDERCAST_FAULT_REPORT"], !path.isEmpty,
            var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        else { return }
        data.append(UInt8(ascii: "\n"))
        // One write with O_APPEND: lines of scenarios that end at once never interleave.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}

/// Lets an injected fault go on for `duration` (a flapping device, a close loop) before its
/// effects are counted: the length of the fault, not a wait for an event (events are awaited
/// with deadlines).
func faultLasts(_ duration: Duration) async {
    try? await Task.sleep(for: duration, clock: .continuous)
}
