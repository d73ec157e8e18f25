import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Calls `onChange` on its own queue each time a file in `directory` is created, written and
/// closed, moved in or deleted (inotify, read by a dispatch read source): an event to re-read a file
/// another process writes, instead of polling it. ``close()`` (or `deinit`) stops.
public final class DirectoryWatch: @unchecked Sendable {
    private let source: DispatchSourceRead
    private let lock = NSLock()
    private var closed = false

    public init(directory: String, onChange: @escaping @Sendable () -> Void) throws {
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard fd >= 0 else { throw DatagramSocket.Failure(call: "inotify_init1", errno: errno) }
        guard inotify_add_watch(fd, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)) >= 0 else {
            let error = errno
            Glibc.close(fd)
            throw DatagramSocket.Failure(call: "inotify_add_watch \(directory)", errno: error)
        }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "DirectoryWatch"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            onChange()
        }
        source.setCancelHandler { Glibc.close(fd) }
        source.resume()
    }

    /// Stops watching. Idempotent.
    public func close() {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if first { source.cancel() }
    }

    deinit { close() }
}
