#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a regular file, copied with `pread` into an anonymous mapping of their own that
/// is unmapped when the last reference goes (nothing of it stays resident after). A copy, not a
/// mapping of the file: a file rewritten in place while mapped would raise `SIGBUS` in a reader.
// `@unchecked Sendable`: a raw pointer (C's `mmap`) to bytes never written after `init`.
public final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while this object lives.
    public let bytes: UnsafeRawBufferPointer

    /// What identifies the file's contents: device, inode, size and modification time
    /// (`fstat`). A file changed in place (`cp` over it) has another identity.
    public let identity: Identity

    public struct Identity: Sendable, Equatable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int
        public var modified: Int
        public var modifiedNanoseconds: Int
    }

    /// A copy of the regular file at `path` (``init(copying:subject:limit:)``).
    ///
    /// - Parameter limit: the largest size accepted, in bytes.
    /// - Throws: ``WholeFile/ReadError``: `.system` for a failing `open`, `fstat`, `mmap` or
    ///   `pread` (`ENOENT`, `EACCES`, `EISDIR` for a directory), `.notRegularFile`, `.tooLarge`,
    ///   `.changedWhileReading`; an empty file gives no bytes (no `mmap` call).
    public convenience init(path: String, limit: Int) throws(WholeFile.ReadError) {
        let fd = try WholeFile.openForReading(path)
        defer { try? Descriptor.close(fd) }
        try self.init(copying: fd, subject: path, limit: limit)
    }

    /// A copy of the file open as `descriptor` (which stays open and the caller's), read from
    /// offset 0 with `pread` into a private anonymous mapping, unmapped when the last reference
    /// goes. ``identity`` is that of the file before the read.
    ///
    /// - Throws: ``WholeFile/ReadError`` as ``init(path:limit:)``; `.changedWhileReading` when
    ///   the file ends before or after its size (`fstat`) was read.
    public init(copying fd: Int32, subject path: String, limit: Int) throws(WholeFile.ReadError) {
        let status = try WholeFile.regularFileStatus(fd, path, call: "read")
        let size = Int(status.st_size)
        identity = Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: size, modified: status.st_mtim.tv_sec,
            modifiedNanoseconds: status.st_mtim.tv_nsec)
        guard size <= limit else { throw .tooLarge(limit: limit) }
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            address != MAP_FAILED
        else {
            throw .system(Errno(call: "mmap", subject: path, code: errno))
        }
        var failure: WholeFile.ReadError?
        var done = 0
        while done < size {
            let n: Int
            do {
                n = try blockingSyscall("pread", path) { pread(fd, address + done, size - done, off_t(done)) }
            } catch {
                failure = .system(error)
                break
            }
            guard n > 0 else {
                failure = .changedWhileReading
                break
            }
            done += n
        }
        var probe: UInt8 = 0
        if failure == nil, (try? blockingSyscall("pread", path) { pread(fd, &probe, 1, off_t(size)) }) != 0 {
            failure = .changedWhileReading
        }
        if let failure {
            munmap(address, size)
            throw failure
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
