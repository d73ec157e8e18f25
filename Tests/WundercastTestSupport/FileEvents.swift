import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Every inotify event of one directory, with the name it concerns, as it happens: a test
/// waits on ``events`` (an ``Observed`` list) for a file to be created, renamed into place or
/// deleted, or acts at once in ``onEvent`` (called on the watch's own queue, in order). Unlike
/// ``DirectoryWatch`` it tells events apart, so a test can count writes. ``close()`` (or `deinit`) stops.
public final class FileEvents: @unchecked Sendable {
    public struct Event: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            case created, closedAfterWriting, movedIn, deleted
        }
        public var kind: Kind
        /// The file's name in the directory.
        public var name: String
        public var description: String { "\(kind) \(name)" }
        public init(kind: Kind, name: String) {
            self.kind = kind
            self.name = name
        }
    }

    /// Every event so far, in order.
    public let events = Observed<[Event]>([])
    private let source: DispatchSourceRead

    public init(directory: String, onEvent: (@Sendable (Event) -> Void)? = nil) throws {
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard fd >= 0 else { throw DatagramSocket.Failure(call: "inotify_init1", errno: errno) }
        let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let error = errno
            Glibc.close(fd)
            throw DatagramSocket.Failure(call: "inotify_add_watch \(directory)", errno: error)
        }
        let events = self.events
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "FileEvents"))
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                for event in Self.parse(buffer[..<n]) {
                    events.update { $0.append(event) }
                    onEvent?(event)
                }
            }
        }
        source.setCancelHandler { Glibc.close(fd) }
        source.resume()
    }

    /// `struct inotify_event` records: wd, mask, cookie, len (4 bytes each), then `len` bytes of
    /// NUL-padded name.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
        var out: [Event] = []
        var offset = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            bytes[at..<(at + 4)].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
        }
        while offset + 16 <= bytes.endIndex {
            let mask = word(offset + 4)
            let length = Int(word(offset + 12))
            let nameBytes = bytes[(offset + 16)..<min(bytes.endIndex, offset + 16 + length)]
            let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            offset += 16 + length
            let kind: Event.Kind? =
                if mask & UInt32(IN_CREATE) != 0 {
                    .created
                } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                    .closedAfterWriting
                } else if mask & UInt32(IN_MOVED_TO) != 0 {
                    .movedIn
                } else if mask & UInt32(IN_DELETE) != 0 {
                    .deleted
                } else {
                    nil
                }
            if let kind { out.append(Event(kind: kind, name: name)) }
        }
        return out
    }

    /// Stops watching. Idempotent (cancelling a dispatch source again does nothing).
    public func close() { source.cancel() }

    deinit { close() }
}
