import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with ``Spawn`` (empty signal mask, own process group), whose exit
/// and output arrive as events:
/// - a dedicated thread blocks in `waitpid` for it and publishes the wait status (``exited()``
///   resumes then), so nobody polls and no Swift concurrency thread blocks;
/// - stdout and stderr are pipes read by dedicated threads into ``output`` (both streams, in
///   arrival order) and, with `separateStderr`, stderr into ``errorOutput``.
///
/// `deinit` of a process still running sends SIGKILL to its group (the watcher thread reaps it).
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// stdout (and stderr, unless `separateStderr`).
    public let output: OutputLog
    /// stderr when started with `separateStderr`; else the same as ``output``.
    public let errorOutput: OutputLog
    /// The raw wait status once the process has been reaped.
    public let waitStatus = Observed<Int32?>(nil)
    private let stdinWrite: Int32?
    private let lock = NSLock()
    /// Set, under `lock`, when the child is reaped: from then on its pid may belong to another.
    private let reapedFlag = Flag()
    private let stdinLock = NSLock()
    private var stdinOpen: Bool
    private let reaped = DispatchGroup()

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `arguments[0]` (an absolute path).
    /// - Parameters:
    ///   - environment: the child's whole environment; `nil` inherits this process's.
    ///   - stdinPipe: give the child a pipe as stdin (``writeToStdin(_:)``, ``closeStdin()``);
    ///     otherwise /dev/null.
    ///   - separateStderr: read stderr apart, into ``errorOutput``.
    ///   - outputCopy: a file that receives a copy of ``output`` as it arrives.
    ///   - outputPipe: a pipe made by the caller for stdout and stderr (e.g. to name it in
    ///     `JOURNAL_STREAM` before the start); this takes both ends over.
    public init(
        _ arguments: [String], environment: [String: String]? = nil, stdinPipe: Bool = false,
        separateStderr: Bool = false, outputCopy: String? = nil, outputPipe: PipeDescriptors? = nil
    ) throws {
        let out = try outputPipe ?? PipeDescriptors()
        let err = separateStderr ? try PipeDescriptors() : nil
        let input = stdinPipe ? try PipeDescriptors() : nil
        let name = URL(fileURLWithPath: arguments[0]).lastPathComponent
        do {
            pid = try Spawn.process(
                arguments, stdin: input?.read, stdout: out.write, stderr: err?.write ?? out.write,
                environment: environment)
        } catch {
            for fd in [out.read, out.write, err?.read, err?.write, input?.read, input?.write].compactMap({ $0 }) {
                close(fd)
            }
            throw error
        }
        // Our copies of the child's ends: the readers see EOF once the child's are closed too.
        close(out.write)
        if let err { close(err.write) }
        if let input { close(input.read) }
        stdinWrite = input?.write
        stdinOpen = input != nil

        output = OutputLog(copyTo: outputCopy)
        out.readToEnd(into: output, name: "\(name) output")
        if let err {
            errorOutput = OutputLog()
            err.readToEnd(into: errorOutput, name: "\(name) stderr")
        } else {
            errorOutput = output
        }

        let pid = self.pid
        let status = waitStatus
        let reaped = self.reaped
        reaped.enter()
        let watcher = Thread { [lock, reapedFlag] in
            // Wait for the exit without reaping (WNOWAIT): the zombie keeps the pid, and its
            // process group id, from being reused while signals may still be sent to them;
            // then reap under the lock that ``signal(_:)`` and ``signalGroup(_:)`` take.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            var raw: Int32 = 0
            lock.withLock {
                while waitpid(pid, &raw, 0) < 0 {
                    guard errno == EINTR else {
                        raw = -1
                        break
                    }
                }
                reapedFlag.value = true
            }
            status.update { $0 = raw }
            reaped.leave()
        }
        watcher.name = "\(name) exit"
        watcher.start()
    }

    deinit {
        closeStdin()
        signalGroup(SIGKILL)
    }

    /// Whether the process has not been reaped yet.
    public var isRunning: Bool { waitStatus.value == nil }

    /// The exit code: 0–255, or 128 + the signal number when a signal ended it.
    public static func exitCode(_ status: Int32) -> Int32 {
        if status == -1 { return -1 }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// The exit code (see ``exitCode(_:)``), once the process has ended; `nil` while it runs.
    public var exitCode: Int32? { waitStatus.value.map(Self.exitCode) }

    /// Waits for the exit (resumed by the thread that reaped the child) and returns its exit
    /// code; ``DeadlineExceeded`` after `timeout`.
    @discardableResult
    public func exited(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let status = try await waitStatus.wait(timeout: timeout, "exit of pid \(pid)") { $0 != nil }
        return Self.exitCode(status!)
    }

    /// Blocks the calling thread until the exit (or `timeout`); returns the exit code, `nil`
    /// on timeout. For synchronous clean-up paths only (`deinit`, a synchronous `stop()`);
    /// never call it from a test's task.
    public func exitedBlocking(timeout: Duration) -> Int32? {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard reaped.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return exitCode
    }

    /// Sends `signal` to the process (not to its group), unless it has been reaped (its pid
    /// could name another process then).
    public func signal(_ signal: Int32) {
        lock.withLock { if !reapedFlag.value { _ = kill(pid, signal) } }
    }

    /// Sends `signal` to the process's group (it leads one), unless the process has been reaped.
    public func signalGroup(_ signal: Int32) {
        lock.withLock { if !reapedFlag.value { _ = killpg(pid, signal) } }
    }

    /// Runs `body` while the process is certainly not reaped (its pid and group id are its own),
    /// and returns its result; `nil` once the process has been reaped.
    public func whileUnreaped<T>(_ body: () -> T) -> T? {
        lock.withLock { reapedFlag.value ? nil : body() }
    }

    /// SIGTERM, then SIGKILL if it still runs after `grace`; waits for the exit and returns the
    /// exit code.
    @discardableResult
    public func terminate(grace: Duration = .seconds(10)) async -> Int32 {
        signal(SIGTERM)
        if let code = try? await exited(timeout: grace) { return code }
        signal(SIGKILL)
        return (try? await exited(timeout: .seconds(30))) ?? -1
    }

    /// SIGTERM now; in the background, SIGKILL to the group if the process still runs after
    /// `grace`, then `cleanUp`. Returns at once (for `deinit`s and other synchronous paths):
    /// the background task awaits the exit event, no thread waits.
    public func terminateInBackground(grace: Duration = .seconds(10), then cleanUp: @escaping @Sendable () -> Void = {})
    {
        signal(SIGTERM)
        Task.detached { [self] in
            if (try? await exited(timeout: grace)) == nil {
                signalGroup(SIGKILL)
                _ = try? await exited(timeout: .seconds(30))
            }
            cleanUp()
        }
    }

    /// Writes `bytes` to the child's stdin (blocking only while its buffer is full; dropped
    /// once the child has closed it: `MSG_NOSIGNAL`, no SIGPIPE).
    public func writeToStdin(_ bytes: [UInt8]) {
        guard let fd = stdinWrite, stdinLock.withLock({ stdinOpen }) else { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Closes the child's stdin (it reads EOF). Idempotent.
    public func closeStdin() {
        guard let fd = stdinWrite else { return }
        let wasOpen = stdinLock.withLock {
            defer { stdinOpen = false }
            return stdinOpen
        }
        if wasOpen { close(fd) }
    }
}

/// A Boolean guarded by the lock of its owner.
private final class Flag: @unchecked Sendable {
    var value = false
}
