#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped read-only (`mmap` with `PROT_READ`, `MAP_PRIVATE`), unmapped when the
/// last reference goes. Its pages are read from the page cache when first touched and count
/// in the process's resident memory only while mapped in; ``dropResidentPages()`` gives them
/// back. For data files read in place, such as the city table image (`cities.bin`).
///
/// The file must not be truncated while mapped (reading a page past the new end raises
/// `SIGBUS`): install a new version by renaming over it, as `install(1)` does.
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

    /// Maps the regular file at `path`.
    ///
    /// - Parameter limit: the largest size accepted, in bytes.
    /// - Throws: ``WholeFile/ReadError``: `.system` for a failing `open`, `fstat` or `mmap`
    ///   (`ENOENT`, `EACCES`, `EISDIR` for a directory), `.notRegularFile`, `.tooLarge`; an
    ///   empty file maps to no bytes (no `mmap` call).
    public convenience init(path: String, limit: Int) throws(WholeFile.ReadError) {
        let fd = try WholeFile.openForReading(path)
        defer { try? Descriptor.close(fd) }
        try self.init(descriptor: fd, subject: path, limit: limit)
    }

    /// Maps the file open as `descriptor` (which stays open and the caller's): as
    /// ``init(path:limit:)``; `subject` names the file in errors.
    public init(descriptor fd: Int32, subject path: String, limit: Int) throws(WholeFile.ReadError) {
        let status = try WholeFile.regularFileStatus(fd, path, call: "mmap")
        let size = Int(status.st_size)
        identity = Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: size, modified: status.st_mtim.tv_sec,
            modifiedNanoseconds: status.st_mtim.tv_nsec)
        guard size <= limit else { throw .tooLarge(limit: limit) }
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw .system(Errno(call: "mmap", subject: path, code: errno))
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    /// Takes the mapping's pages out of the process's resident memory (`madvise` with
    /// `MADV_DONTNEED`; they stay in the page cache). The contents do not change: the next
    /// read maps the page in again.
    public func dropResidentPages() {
        guard let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
