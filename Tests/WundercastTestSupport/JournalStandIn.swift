import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for journald: a datagram socket bound at `/run/systemd/journal/socket`, where
/// libsystemd's `sd_journal_sendv` always writes (PITFALLS), for machines where no journald
/// runs (no systemd as PID 1) and the tests run as root.
///
/// - A thread drains the socket while the stand-in is open: a local datagram socket queues
///   only `net.unix.max_dgram_qlen` datagrams (often 10), and a sender then blocks.
/// - Every datagram keeps its sender's process id (`SO_PASSCRED`), so a test keeps the entries
///   of its own process or daemon even when other programs log at the same moment.
/// - One stand-in at a time on the machine: an abstract socket name serves as a lock, taken
///   before the path is bound (another test process may be using the path). A socket file
///   that nobody has bound any longer (a test that was killed) is removed. Within this
///   process, ``open(timeout:)`` queues tests on an awaited claim (no thread waits); only a
///   stand-in of another process is waited for by retrying, on a dedicated thread.
/// - ``close()`` (or `deinit`) removes the socket and the directories the stand-in made, and
///   releases the lock.
public final class JournalStandIn: @unchecked Sendable {
    public static let directory = "/run/systemd/journal"
    public static let socketPath = directory + "/socket"

    /// How a test can see what a process sends to the journal.
    public enum Availability: Sendable, Equatable {
        /// No journald here, and we are root: bind a ``JournalStandIn``.
        case standIn
        /// journald runs (its `stdout` socket is beside the native one): read back with ``Journalctl``.
        case journald
        /// Neither (not root, no journald): such tests are disabled.
        case unavailable
    }

    public static var availability: Availability {
        if access(socketPath, F_OK) == 0 && access(directory + "/stdout", F_OK) == 0 { return .journald }
        return getuid() == 0 ? .standIn : .unavailable
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let socket: DatagramSocket
    private let lockFD: Int32
    private let madeDirectories: [String]
    private let condition = NSCondition()
    private var received: [DatagramSocket.Datagram] = []
    private var stopping = false
    private var closed = false
    private let readerFinished = DispatchSemaphore(value: 0)
    /// How many datagrams arrived: what ``waitForEntries(timeout:_:until:)`` waits on.
    private let arrivals = Observed(0)
    /// Wakes the reader thread for ``close()`` (it waits in `poll` on the socket and this).
    private let wake: PipeDescriptors

    /// Whether a stand-in of this process is open: the in-process queue of ``open(timeout:)``.
    private static let claimed = Observed(false)

    /// Opens a stand-in once the one of another test has closed: of this process, awaited
    /// without a deadline (each holder is bounded by its own test's waits, and closes on
    /// `deinit` at the latest); of another process, retried on a dedicated thread for at most
    /// `timeout`.
    public static func open(timeout: Duration = .seconds(120)) async throws -> JournalStandIn {
        while true {
            _ = try await claimed.wait { !$0 }
            let taken = claimed.update { (held: inout Bool) -> Bool in
                defer { held = true }
                return !held
            }
            if taken { break }
        }
        let seconds = Double(timeout.components.seconds)
        // The claim is released by the stand-in's `close()` (or `deinit`: the one a cancelled
        // open drops), or here when none could be made.
        return try await onDedicatedThread("JournalStandIn.open") {
            do {
                return try JournalStandIn(timeout: seconds)
            } catch {
                claimed.update { $0 = false }
                throw error
            }
        }
    }

    /// Takes the machine-wide lock, makes `/run/systemd/journal` if needed and binds the
    /// socket, waiting at most `timeout` seconds for another stand-in to go away. Blocks while
    /// it waits: call it through ``open(timeout:)``, which holds the in-process claim.
    private init(timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        lockFD = try Self.acquireLock(deadline: deadline)
        var made: [String] = []
        for path in ["/run/systemd", Self.directory] where mkdir(path, 0o755) == 0 {
            made.append(path)
        }
        madeDirectories = made
        do {
            socket = try Self.bind(deadline: deadline)
            wake = try PipeDescriptors()
        } catch {
            for path in made.reversed() { rmdir(path) }
            Glibc.close(lockFD)
            throw error
        }
        // The thread holds the stand-in only while it reads, so that `deinit` can close it.
        // It sleeps in `poll` on the socket and on `wake` (written by ``close()``), holding
        // only the descriptors; it closes `wake` as it leaves.
        let finished = readerFinished
        let socketFD = socket.fd
        let wake = self.wake
        let reader = Thread { [weak self] in
            defer {
                Glibc.close(wake.read)
                Glibc.close(wake.write)
                finished.signal()
            }
            while true {
                var descriptors = [
                    pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                ]
                _ = poll(&descriptors, 2, -1)
                guard let standIn = self, standIn.readOnce() else { return }
            }
        }
        reader.name = "JournalStandIn"
        reader.start()
    }

    // The reader is not inside `readOnce()` now (it holds the stand-in there); woken, it stops
    // at its next look at `self`; `deinit` may even run on it, so it is not waited for.
    deinit { close(waitingForReader: false) }

    /// Every datagram received so far, oldest first.
    public var datagrams: [DatagramSocket.Datagram] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    /// Every well-formed entry received so far, oldest first.
    public var entries: [JournalEntry] { datagrams.compactMap(JournalEntry.init) }

    /// The well-formed entries sent by process `pid`.
    public func entries(from pid: pid_t) -> [JournalEntry] {
        entries.filter { $0.senderPID == pid }
    }

    /// Waits until `predicate` holds for the entries received so far (checked now and as
    /// datagrams arrive: the reader thread resumes the wait); returns whether it did before
    /// `timeout` (a safety net).
    @discardableResult
    public func waitForEntries(
        timeout: Duration = .seconds(10), _ what: String, until predicate: @escaping @Sendable ([JournalEntry]) -> Bool
    ) async -> Bool {
        (try? await arrivals.wait(timeout: timeout, what) { [weak self] _ in
            guard let self else { return false }
            return predicate(self.entries)
        }) != nil
    }

    /// Stops reading (after taking what is queued), removes the socket and the directories
    /// this stand-in made, and releases the lock. Idempotent.
    public func close() { close(waitingForReader: true) }

    private func close(waitingForReader: Bool) {
        condition.lock()
        let first = !closed
        closed = true
        stopping = true
        condition.broadcast()
        condition.unlock()
        guard first else { return }
        var one: UInt8 = 1
        _ = send(wake.write, &one, 1, Int32(MSG_NOSIGNAL))
        if waitingForReader, readerFinished.wait(timeout: .now() + 10) == .timedOut {
            // The reader wakes at once; it cannot be stuck, but never leave the socket bound.
            FileHandle.standardError.write(Data("JournalStandIn: the reader thread did not stop\n".utf8))
        }
        drain()
        socket.close()
        for path in madeDirectories.reversed() { rmdir(path) }
        Glibc.close(lockFD)
        Self.claimed.update { $0 = false }
    }

    /// Takes the queued datagrams; `false` once the stand-in is closing.
    private func readOnce() -> Bool {
        drain()
        condition.lock()
        defer { condition.unlock() }
        return !stopping
    }

    private func drain() {
        var batch: [DatagramSocket.Datagram] = []
        while let datagram = socket.receiveDatagram() { batch.append(datagram) }
        guard !batch.isEmpty else { return }
        condition.lock()
        received.append(contentsOf: batch)
        let count = received.count
        condition.broadcast()
        condition.unlock()
        arrivals.update { $0 = count }
    }

    /// The lock: an abstract `AF_UNIX` name can be bound by one socket at a time on the
    /// machine, and is released when that socket closes, even when its process is killed.
    static func acquireLock(deadline: Date) throws -> Int32 {
        let name = Array("\0wundercast-journal-stand-in".utf8)
        while true {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw DatagramSocket.Failure(call: "socket", errno: errno) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
            }
            if result == 0 { return fd }
            let error = errno
            Glibc.close(fd)
            guard error == EADDRINUSE else { throw DatagramSocket.Failure(call: "bind (stand-in lock)", errno: error) }
            guard Date() < deadline else { throw Failure(description: "another journal stand-in stayed open too long") }
            usleep(50_000)
        }
    }

    /// Binds the socket path once it is free: a socket file nobody is bound to any more is
    /// removed; one that is in use (a test process without the lock) is waited for.
    static func bind(deadline: Date) throws -> DatagramSocket {
        while true {
            do {
                return try DatagramSocket(path: socketPath, passCredentials: true)
            } catch let failure as DatagramSocket.Failure where failure.errno == EADDRINUSE {
                if isStale(socketPath) {
                    unlink(socketPath)
                    continue
                }
                guard Date() < deadline else {
                    throw Failure(description: "\(socketPath) is in use by another process (and it is not journald)")
                }
                usleep(50_000)
            }
        }
    }

    /// Whether `path` is a socket file that no socket is bound to (`connect` is refused).
    static func isStale(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result != 0 && errno == ECONNREFUSED
    }
}

/// Reading entries back from a running journald with `journalctl -o json`.
public enum Journalctl {
    /// The entries that match every one of `matches` (e.g. `"_PID=123"`), oldest first.
    /// `journalctl` is bounded by `timeout`.
    public static func entries(_ matches: [String], timeout: Duration = .seconds(20)) async throws -> [JournalEntry] {
        let result = try await runProcess(
            "/bin/journalctl", ["--no-pager", "--all", "-o", "json"] + matches, timeout: timeout)
        return try result.stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw JournalStandIn.Failure(description: "journalctl printed a line that is no JSON object: \(line)")
            }
            var fields: [(name: String, value: [UInt8])] = []
            for (name, json) in object.sorted(by: { $0.key < $1.key }) {
                for value in bytes(json) ?? [] { fields.append((name: name, value: value)) }
            }
            let pid = (object["_PID"] as? String).flatMap { pid_t($0) }
            return JournalEntry(fields: fields, senderPID: pid)
        }
    }

    /// Follows the journal (`journalctl --follow -o json` matching `matches`) until a line for
    /// which `predicate` holds arrives; returns whether one did before `timeout`. journald
    /// gives a reader no other event.
    public static func waitForEntry(
        _ matches: [String], _ what: String, timeout: Duration = .seconds(20),
        where predicate: @escaping @Sendable (String) -> Bool
    ) async throws -> Bool {
        let follow = try ChildProcess(
            ["/bin/journalctl", "--no-pager", "--follow", "--all", "-o", "json"] + matches, separateStderr: true)
        defer { follow.signalGroup(SIGKILL) }
        return (try? await follow.output.waitFor(what, timeout: timeout, predicate)) != nil
    }

    /// journalctl's JSON gives a value as a string, as an array of byte numbers (binary or
    /// unprintable values), or as an array of those (a field that appears several times);
    /// `null` for a value it left out.
    public static func bytes(_ json: Any) -> [[UInt8]]? {
        if let string = json as? String { return [Array(string.utf8)] }
        if let numbers = json as? [Int] { return [numbers.map { UInt8(truncatingIfNeeded: $0) }] }
        if let values = json as? [Any] { return values.compactMap { bytes($0)?.first } }
        return nil
    }
}
