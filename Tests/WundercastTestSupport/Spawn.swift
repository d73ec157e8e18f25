import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starting child processes for tests without Foundation's `Process`, which (a) hands its
/// children a signal mask with SIGTERM blocked when called from a Swift concurrency thread,
/// and (b) takes a child that closes its inherited descriptors before `exec` (as
/// `systemd-socket-activate` does) for dead and then blocks in `waitpid` for it.
/// ``ChildProcess`` starts through here and owns the reaping (one `waitpid` thread per child).
public enum Spawn {
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The child's stdin: `fd` of this process, or /dev/null.
    private static func standardInput(_ actions: inout posix_spawn_file_actions_t, _ fd: Int32?) {
        if let fd {
            posix_spawn_file_actions_adddup2(&actions, fd, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
    }

    /// `posix_spawn` with an empty signal mask, default dispositions and a new process group;
    /// stdin from `stdin` (a descriptor of this process) or /dev/null, stdout and stderr to `output`.
    public static func process(
        _ arguments: [String], output: String, stdin: Int32? = nil, environment: [String: String]? = nil
    ) throws -> pid_t {
        try process(arguments, environment: environment) { actions in
            standardInput(&actions, stdin)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
    }

    /// As ``process(_:output:environment:)``, with the child's stdin, stdout and stderr given
    /// as descriptors of this process (`nil` stdin: /dev/null). The descriptors should be
    /// close-on-exec here (``PipeDescriptors`` are): `dup2` in the child clears the flag on
    /// 0, 1 and 2, and no other child started at the same moment inherits them.
    public static func process(
        _ arguments: [String], stdin: Int32?, stdout: Int32, stderr: Int32, environment: [String: String]? = nil
    ) throws -> pid_t {
        try process(arguments, environment: environment) { actions in
            standardInput(&actions, stdin)
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        }
    }

    /// Held across each `posix_spawn`: between its `clone` and the child's `exec` the child holds
    /// a copy of every descriptor of this process, close-on-exec or not.
    private static let spawning = NSLock()

    /// The environment this process started with, read once under ``spawning`` before any
    /// test changed it (through ``changingEnvironment(_:)``): what every child gets unless it
    /// is given its own. Never `environ` itself: a test that sets `NOTIFY_SOCKET` or
    /// `LISTEN_FDS` for the code it calls must not hand them to another test's children, and
    /// `setenv` may free the array a concurrent `posix_spawn` is reading (`EFAULT`).
    private static let original: [String: String] = ProcessInfo.processInfo.environment

    /// ``original``, for a caller that adds variables of its own to it.
    public static var environment: [String: String] { spawning.withLock { original } }

    /// Runs `body` (which calls `setenv`/`unsetenv`) while no child is being started, after
    /// ``original`` was read: no spawn reads the environment while it changes.
    public static func changingEnvironment(_ body: () -> Void) {
        spawning.withLock {
            _ = original
            body()
        }
    }

    /// Runs `body` while no child is being started by this process: a descriptor closed in
    /// `body` is closed for good (no child in the middle of `posix_spawn` holds a copy), e.g.
    /// a listening socket that must refuse connections afterwards.
    public static func withNoSpawnInFlight<T>(_ body: () throws -> T) rethrows -> T {
        spawning.lock()
        defer { spawning.unlock() }
        return try body()
    }

    private static func process(
        _ arguments: [String], environment: [String: String]?,
        files: (inout posix_spawn_file_actions_t) -> Void
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        var result: Int32 = 0
        spawning.lock()
        defer { spawning.unlock() }
        // Nothing but 0, 1 and 2: tests run in parallel, and a descriptor of another test that
        // is not close-on-exec (the server's accepted clients are not) would otherwise live on
        // in this child, e.g. keeping a connection from seeing EOF. (Swift's Glibc lacks
        // `posix_spawn_file_actions_addclosefrom_np`; glibc ignores `EBADF` here for a
        // descriptor closed meanwhile.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var envp: [UnsafeMutablePointer<CChar>?] =
            (environment ?? original).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        result = SpawningThread.run { posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp) }
        guard result == 0 else {
            throw SpawnError(description: "posix_spawn \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }
}

/// The one thread that starts every child of the test process, alive as long as the process:
/// the kernel sends a child its parent-death signal (`PR_SET_PDEATHSIG`, which
/// `wundercastctl watch` asks for) when the *thread* that started it ends, and a Swift
/// concurrency thread (a dispatch worker) ends after a few idle seconds — a test's `watch`
/// would die then.
private enum SpawningThread {
    /// One call, run there; its result.
    final class Job: @unchecked Sendable {
        var body: () -> Int32 = { 0 }
        var result: Int32 = 0
        let done = DispatchSemaphore(value: 0)
    }

    private static let condition = NSCondition()
    nonisolated(unsafe) private static var pending: [Job] = []
    /// Started on first use.
    private static let started: Bool = {
        let thread = Thread {
            while true {
                condition.lock()
                while pending.isEmpty { condition.wait() }
                let job = pending.removeFirst()
                condition.unlock()
                job.result = job.body()
                job.body = { 0 }  // the caller's closure is not kept past its call (withoutActuallyEscaping)
                job.done.signal()
            }
        }
        thread.name = "Spawn"
        thread.start()
        return true
    }()

    /// Runs `body` on the thread and returns its result.
    static func run(_ body: () -> Int32) -> Int32 {
        _ = started
        return withoutActuallyEscaping(body) { body in
            let job = Job()
            job.body = body
            condition.lock()
            pending.append(job)
            condition.signal()
            condition.unlock()
            job.done.wait()
            return job.result
        }
    }
}
