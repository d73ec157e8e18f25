#if canImport(Glibc)
import Glibc
#endif

/// Waits for a file to appear, woken by the kernel (inotify) rather than by polling: no
/// wake-ups while nothing happens. The inotify descriptor is served by the daemon's one
/// ``EventLoop``, like every other descriptor it waits on. Used for systemd-timesyncd's
/// `/run/systemd/timesync/synchronized`, which it creates once the clock is synchronised.
public enum FileAppearance {
    /// Returns `true` once something exists at `path` (at once when it does already); `false`
    /// when the calling task is cancelled first, or when inotify cannot be used or `loop` has
    /// ended (then nobody would wake it: the caller learns at once).
    ///
    /// Watches the nearest existing directory on the way to `path` (`IN_CREATE`, `IN_MOVED_TO`),
    /// going deeper as missing directories appear, so a directory created later (timesyncd's
    /// own) is followed too. A relative `path` counts from the working directory.
    ///
    /// - Parameter loop: the loop that reads the inotify descriptor (its thread drains the
    ///   events and wakes the waiting task).
    /// - Parameter watching: called each time the watch is in place and `path` is still
    ///   missing (tests learn that the wait has begun).
    public static func wait(
        for path: String, on loop: EventLoop, watching: (@Sendable () -> Void)? = nil
    ) async -> Bool {
        guard !exists(path) else { return true }
        let fd: Int32
        do {
            fd = try DescriptorReserve.claim(
                try blockingSyscall("inotify_init1", path) { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) },
                "inotify_init1", path)
        } catch {
            return false
        }
        let (events, sink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let registered: Result<EventLoop.Registration, Errno> = await loop.perform {
            do throws(Errno) {
                return .success(
                    try loop.register(fd, for: .readable) { _ in
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
                        sink.yield()
                    })
            } catch {
                return .failure(error)
            }
        }
        guard case .success(let registration) = registered else {
            try? Descriptor.close(fd)
            return false
        }
        // Unregistered before it is closed, on the loop (closed here once the loop has ended).
        defer {
            let end: @Sendable () -> Void = {
                loop.unregister(registration)
                try? Descriptor.close(fd)
            }
            if !loop.post(end) { try? Descriptor.close(fd) }
        }
        // The stream ends the wait by itself when the task is cancelled (`next()` gives `nil`).
        var iterator = events.makeAsyncIterator()
        while true {
            // Watch first, then look: a file made in between is seen either way.
            let directory = nearestExistingDirectory(of: path)
            let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
            guard
                (try? blockingSyscall("inotify_add_watch", directory) { inotify_add_watch(fd, directory, mask) }) != nil
            else { return exists(path) }
            if exists(path) { return true }
            watching?()
            guard await iterator.next() != nil, !Task.isCancelled else { return false }
        }
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The deepest directory on the way to `path` that exists (`/` at worst).
    static func nearestExistingDirectory(of path: String) -> String {
        var directory = path
        repeat {
            guard let slash = directory.lastIndex(of: "/") else { return "." }
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
            var status = stat()
            if stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return directory }
        } while directory != "/"
        return "/"
    }
}
