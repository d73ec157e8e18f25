#if canImport(Glibc)
import Glibc
#endif

/// Whole small files: read to EOF, or replaced atomically (``writeAtomically(_:to:permissions:)``).
public enum WholeFile {
    /// Why ``read(path:limit:)`` failed.
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A system call failed (`open`: `ENOENT`, `EACCES`; `read`: `EISDIR` for a directory, `EIO`).
        case system(Errno)
        /// The file exists but is neither a regular file nor a directory (a FIFO, a device, a socket).
        case notRegularFile
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)
        /// The file grew or shrank while it was being read (someone writes it in place).
        case changedWhileReading

        /// The reason alone, to follow "cannot read:", e.g. `No such file or directory`,
        /// `Is a directory`, `not a regular file`, `larger than 1048576 bytes`.
        public var reason: String {
            switch self {
            case .system(let errno): errno.reason
            case .notRegularFile: "not a regular file"
            case .tooLarge(let limit): "larger than \(limit) bytes"
            case .changedWhileReading: "changed while it was being read"
            }
        }

        public var description: String {
            switch self {
            case .system(let errno): errno.description
            default: reason
            }
        }
    }

    /// The bytes of the regular file at `path`, read with `open`/`read` until EOF (`EINTR`
    /// retried), so errors carry the operating system's reason. A FIFO or device is refused
    /// without blocking (opened with `O_NONBLOCK`, then checked with `fstat`).
    ///
    /// - Parameter limit: the largest size accepted, in bytes.
    /// - Throws: ``ReadError``; a directory is `.system` with `EISDIR` (as `read(2)` reports it).
    public static func read(path: String, limit: Int) throws(ReadError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { try? Descriptor.close(fd) }
        _ = try regularFileStatus(fd, path, call: "read")
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n: Int
            do {
                n = try blockingSyscall("read", path) {
                    chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                }
            } catch {
                throw .system(error)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// Opens `path` to read (`O_RDONLY`, close-on-exec, no controlling terminal, and
    /// `O_NONBLOCK` so that a FIFO does not block the open). The descriptor is the caller's.
    public static func openForReading(_ path: String) throws(ReadError) -> Int32 {
        do {
            let fd = try blockingSyscall("open", path) { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
            return try DescriptorReserve.claim(fd, "open", path)
        } catch {
            throw .system(error)
        }
    }

    /// `fstat` of the open file `fd`, which must be a regular file: a directory is `.system`
    /// with `EISDIR` (named as `call` would report it), anything else `.notRegularFile`.
    static func regularFileStatus(_ fd: Int32, _ path: String, call: String) throws(ReadError) -> stat {
        var status = stat()
        do {
            _ = try blockingSyscall("fstat", path) { fstat(fd, &status) }
        } catch {
            throw .system(error)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return status
        case S_IFDIR: throw .system(Errno(call: call, subject: path, code: EISDIR))
        default: throw .notRegularFile
        }
    }

    /// Replaces the file at `path` with `bytes` so that a crash leaves either the old or the
    /// new contents: a temporary file `PATH.tmp-XXXXXX` (six random letters and digits) in the
    /// same directory is created (`O_CREAT|O_EXCL|O_CLOEXEC`, mode 0600), written, `fsync`ed, renamed over
    /// `path`, and the directory is `fsync`ed. A crash before the rename leaves the temporary
    /// file behind: ``removeTemporaries(of:)`` clears them.
    ///
    /// - Parameter permissions: the new file's mode (default `0644`; set with `fchmod`, so the umask does not apply).
    /// - Throws: ``Errno`` of the failing step (`open` of the temporary file, `fchmod`, `write`,
    ///   `fsync`, `rename`, `open` of the directory); the temporary file is removed on failure.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(Errno) {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let (fd, temporary) = try createTemporary(beside: path)
        do throws(Errno) {
            defer { try? Descriptor.close(fd) }
            _ = try blockingSyscall("fchmod", temporary) { fchmod(fd, permissions) }
            try Descriptor.writeAll(fd, bytes, subject: temporary)
            _ = try blockingSyscall("fsync", temporary) { fsync(fd) }
            _ = try blockingSyscall("rename", "\(temporary) → \(path)") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        let directoryFD = try DescriptorReserve.claim(
            try blockingSyscall("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }, "open",
            directory)
        defer { try? Descriptor.close(directoryFD) }
        _ = try blockingSyscall("fsync", directory) { fsync(directoryFD) }
    }

    /// What ``writeAtomically(_:to:permissions:)`` appends to the path for its temporary file,
    /// before six random characters.
    static let temporarySuffix = ".tmp-"

    /// Creates `PATH.tmp-XXXXXX` exclusively (`O_CREAT|O_EXCL|O_CLOEXEC|O_NOFOLLOW`, mode 0600),
    /// another random name after `EEXIST` (as `mkstemp` does). Returns the descriptor and the name.
    static func createTemporary(beside path: String) throws(Errno) -> (fd: Int32, path: String) {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var attempt = 0
        while true {
            let name = path + temporarySuffix + String((0..<6).map { _ in letters.randomElement()! })
            let fd: Int32
            do {
                let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
                fd = try blockingSyscall("open", name) { open(name, flags, 0o600) }
            } catch  where error.code == EEXIST && attempt < 100 {
                attempt += 1
                continue
            }
            do throws(Errno) {
                return (try DescriptorReserve.claim(fd, "open", name), name)
            } catch {
                unlink(name)
                throw error
            }
        }
    }

    /// Removes the file at `path`; a file that is not there is no error.
    ///
    /// - Throws: ``Errno`` from `unlink` (but `ENOENT`).
    public static func remove(_ path: String) throws(Errno) {
        guard unlink(path) != 0, errno != ENOENT else { return }
        throw Errno(call: "unlink", subject: path, code: errno)
    }

    /// Removes the temporary files a crash of ``writeAtomically(_:to:permissions:)`` left
    /// beside `path` (`PATH.tmp-XXXXXX`; nothing else is touched). Call it before anyone writes
    /// `path`. Returns the names removed; a directory that cannot be read removes nothing.
    @discardableResult
    public static func removeTemporaries(of path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + temporarySuffix
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var removed: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasPrefix(prefix), name.utf8.count == prefix.utf8.count + 6 else { continue }
            if unlink(directory + "/" + name) == 0 { removed.append(name) }
        }
        return removed
    }
}
