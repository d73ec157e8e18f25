import Foundation

/// The lines a child process (or a socket) produced so far, fed by the thread that reads them,
/// and waited on by tests: "wait until the log has a line matching X" is a continuation that
/// the reader resumes when such a line arrives. Optionally copies every byte to a file (kept
/// for failure messages and for tests that read the file).
public final class OutputLog: @unchecked Sendable {
    /// The output ended (EOF) without a line that matched.
    public struct Ended: Error, CustomStringConvertible {
        public var what: String
        public var output: String
        public var description: String { "output ended before \(what); it was:\n\(output.suffix(3000))" }
    }

    private struct Waiter {
        /// The line, and its number (0 for the first line).
        var predicate: (String, Int) -> Bool
        var continuation: CheckedContinuation<String, any Error>
        var what: String
    }

    private let lock = NSLock()
    private var complete: [String] = []
    private var partial: [UInt8] = []
    private var all: [UInt8] = []
    private var ended = false
    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0
    private let copy: FileHandle?
    private let endGroup = DispatchGroup()

    /// - Parameter copyTo: a file that receives every byte as it arrives (created or truncated).
    public init(copyTo path: String? = nil) {
        if let path {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            copy = FileHandle(forWritingAtPath: path)
        } else {
            copy = nil
        }
        endGroup.enter()
    }

    deinit { try? copy?.close() }

    /// The complete lines so far (without their `\n`).
    public var lines: [String] { lock.withLock { complete } }

    /// Everything so far, lines joined with `\n` (an unfinished last line included).
    public var text: String {
        lock.withLock {
            (complete + (partial.isEmpty ? [] : [String(decoding: partial, as: UTF8.self)])).joined(separator: "\n")
        }
    }

    /// Every byte so far, as text (line ends kept).
    public var rawText: String { lock.withLock { String(decoding: all, as: UTF8.self) } }

    /// Whether the output has ended (EOF).
    public var hasEnded: Bool { lock.withLock { ended } }

    /// Takes `bytes` as they were read; each completed line is checked against the waiters.
    public func append(_ bytes: some Collection<UInt8>) {
        if let copy { try? copy.write(contentsOf: Data(bytes)) }
        var newLines: [String] = []
        lock.withLock {
            partial.append(contentsOf: bytes)
            all.append(contentsOf: bytes)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                newLines.append(String(decoding: partial[..<newline], as: UTF8.self))
                partial.removeSubrange(...newline)
            }
        }
        for line in newLines { appendLine(line) }
    }

    /// Takes one whole line (e.g. one datagram).
    public func appendLine(_ line: String) {
        let ready: [(CheckedContinuation<String, any Error>, String)] = lock.withLock {
            complete.append(line)
            let index = complete.count - 1
            var ready: [(CheckedContinuation<String, any Error>, String)] = []
            for (id, waiter) in waiters where waiter.predicate(line, index) {
                ready.append((waiter.continuation, line))
                waiters[id] = nil
            }
            return ready
        }
        for (continuation, line) in ready { continuation.resume(returning: line) }
    }

    /// The end of the output (EOF): an unfinished last line counts as a line; waiters still
    /// waiting throw ``Ended``.
    public func finish() {
        let rest: [UInt8] = lock.withLock {
            defer { partial = [] }
            return partial
        }
        if !rest.isEmpty { appendLine(String(decoding: rest, as: UTF8.self)) }
        let (left, output, first): ([Waiter], String, Bool) = lock.withLock {
            let first = !ended
            ended = true
            defer { waiters = [:] }
            return (Array(waiters.values), complete.joined(separator: "\n"), first)
        }
        if first { endGroup.leave() }
        for waiter in left { waiter.continuation.resume(throwing: Ended(what: waiter.what, output: output)) }
    }

    /// Waits for the first line (already there, or yet to come) for which `predicate` holds and
    /// returns it. Throws ``Ended`` when the output ends first, ``DeadlineExceeded`` after
    /// `timeout` (a safety net: the reader resumes the wait when the line arrives).
    @discardableResult
    public func waitFor(
        _ what: String, timeout: Duration = .seconds(30), _ predicate: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        do {
            return try await withDeadline(timeout, what) { try await self.waitFor(what) { line, _ in predicate(line) } }
        } catch let error as DeadlineExceeded {
            throw DeadlineExceeded(what: "\(error.what); output so far:\n\(text.suffix(3000))", timeout: timeout)
        }
    }

    /// Waits for a line containing `text`.
    @discardableResult
    public func waitFor(containing text: String, timeout: Duration = .seconds(30)) async throws -> String {
        try await waitFor("a line containing \"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until there are `count` complete lines (already, or as they come) and returns
    /// them, the first `count`: the answers to requests on a connection that stays open (a
    /// watcher). Throws ``Ended`` when the output ends before, ``DeadlineExceeded`` after
    /// `timeout` (a safety net), `CancellationError` when the task is cancelled.
    @discardableResult
    public func waitFor(lines count: Int, _ what: String, timeout: Duration = .seconds(30)) async throws -> [String] {
        guard count > 0 else { return [] }
        do {
            _ = try await withDeadline(timeout, what) {
                try await self.waitFor(what) { _, index in index == count - 1 }
            }
        } catch let error as DeadlineExceeded {
            throw DeadlineExceeded(what: "\(error.what); output so far:\n\(text.suffix(3000))", timeout: timeout)
        }
        return Array(lines.prefix(count))
    }

    private func waitFor(
        _ what: String, _ predicate: @escaping @Sendable (String, Int) -> Bool
    ) async throws
        -> String
    {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enum Outcome {
                    case found(String)
                    case ended(String)
                    case cancelled
                    case registered
                }
                let outcome: Outcome = lock.withLock {
                    if let index = complete.indices.first(where: { predicate(complete[$0], $0) }) {
                        return .found(complete[index])
                    }
                    if ended { return .ended(complete.joined(separator: "\n")) }
                    if Task.isCancelled { return .cancelled }
                    waiters[id] = Waiter(predicate: predicate, continuation: continuation, what: what)
                    return .registered
                }
                switch outcome {
                case .found(let line): continuation.resume(returning: line)
                case .ended(let output): continuation.resume(throwing: Ended(what: what, output: output))
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .registered: break
                }
            }
        } onCancel: {
            let waiter = lock.withLock { waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Blocks the calling thread until the output has ended or `timeout` passed; returns
    /// whether it ended. For synchronous clean-up paths only (`deinit`, a synchronous `stop()`);
    /// never call it from a test's task.
    public func waitForEndBlocking(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return endGroup.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    /// Waits until the output has ended (EOF: every writer closed it).
    public func waitForEnd(_ what: String, timeout: Duration = .seconds(30)) async throws {
        do {
            _ = try await waitFor(what, timeout: timeout) { _ in false }
        } catch is Ended {
            return
        }
    }
}
