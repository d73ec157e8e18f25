#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a regular file in memory of their own, given back when the last reference
/// goes: the file mapped read-only (``init(path:limit:)``, ``init(descriptor:subject:limit:)``;
/// `mmap` with `PROT_READ`, `MAP_PRIVATE`: pages come from the page cache when first touched
/// and count in resident memory only while mapped in, ``dropResidentPages()`` gives them back),
/// or a copy read with `pread` into an anonymous mapping (``init(copying:subject:limit:)``).
///
/// A mapped file must not be truncated while mapped (reading a page past the new end raises
/// `SIGBUS`); a copy has no such risk: use it for a file that others may rewrite in place.
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

    /// A copy of the file open as `descriptor` (which stays open and the caller's), read from
    /// offset 0 with `pread` into a private anonymous mapping, unmapped when the last reference
    /// goes. ``identity`` is that of the file before the read.
    ///
    /// - Throws: ``WholeFile/ReadError`` as ``init(descriptor:subject:limit:)``, and
    ///   `.changedWhileReading` when the file ends before or after its size (`fstat`) was read.
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
