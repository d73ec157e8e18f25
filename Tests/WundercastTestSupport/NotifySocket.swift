import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The receiving end of `sd_notify`, as systemd's would be: a ``DatagramSocket`` at `path`,
/// read by a dispatch read source as datagrams arrive. Each datagram (e.g.
/// `"READY=1\nSTATUS=serving on …"`) is one entry of ``messages``, so a test awaits `READY=1`
/// with `messages.waitFor(containing: "READY=1")`. ``close()`` (or `deinit`) unlinks the path.
public final class NotifySocket: @unchecked Sendable {
    public let path: String
    /// Every datagram received, in order, one entry each (newlines inside kept).
    public let messages = OutputLog()
    private let source: DispatchSourceRead
    private let lock = NSLock()
    private var closed = false

    /// Binds `path` (which must not exist) and starts reading.
    public init(path: String) throws {
        self.path = path
        let socket = UncheckedSocket(try DatagramSocket(path: path))
        let messages = self.messages
        source = DispatchSource.makeReadSource(
            fileDescriptor: socket.value.fd, queue: DispatchQueue(label: "NotifySocket \(path)"))
        source.setEventHandler {
            while let bytes = socket.value.receive() { messages.appendLine(String(decoding: bytes, as: UTF8.self)) }
        }
        source.setCancelHandler {
            socket.value.close()
            messages.finish()
        }
        source.resume()
    }

    /// Stops reading, closes and unlinks the socket; waiters on ``messages`` that did not
    /// match get ``OutputLog/Ended``. Idempotent.
    public func close() {
        let first = lock.withLock {
            defer { closed = true }
            return !closed
        }
        if first { source.cancel() }
    }

    deinit { close() }
}

/// A ``DatagramSocket`` handed to the read source's queue, where alone it is used.
private struct UncheckedSocket: @unchecked Sendable {
    let value: DatagramSocket
    init(_ value: DatagramSocket) { self.value = value }
}
