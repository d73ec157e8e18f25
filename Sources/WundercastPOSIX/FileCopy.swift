#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a regular file, read with `pread` into memory of their own on the heap, freed
/// when the last reference goes. A copy, never a mapping of the file: a file rewritten in place
/// while mapped would raise `SIGBUS` in a reader, and a copy cannot change under its reader.
public final class FileCopy: @unchecked Sendable {  // unchecked: `bytes` is written once, in init, then only read
    /// The file's bytes, valid while this object lives.
    public let bytes: UnsafeRawBufferPointer

    /// The identity of the file the bytes were read from (`fstat` of the open descriptor before
    /// the read).
    public let identity: FileStatus.Identity

    /// A copy of the regular file at `path` (``init(copying:subject:limit:)``).
    ///
    /// - Parameter limit: the largest size accepted, in bytes.
    /// - Throws: ``WholeFile/ReadError``: `.system` for a failing `open`, `fstat` or `pread`
    ///   (`ENOENT`, `EACCES`, `EISDIR` for a directory), `.notRegularFile`, `.tooLarge`,
    ///   `.changedWhileReading`; an empty file gives no bytes.
    public convenience init(path: String, limit: Int) throws(WholeFile.ReadError) {
        let fd = try WholeFile.openForReading(path)
        defer { try? Descriptor.close(fd) }
        try self.init(copying: fd, subject: path, limit: limit)
    }

    /// A copy of the file open as `descriptor` (which stays open and the caller's), read from
    /// offset 0 with `pread` into heap memory of its own, freed when the last reference goes.
    /// ``identity`` is that of the file before the read.
    ///
    /// - Throws: ``WholeFile/ReadError`` as ``init(path:limit:)``; `.changedWhileReading` when
    ///   the file ends before or after its size (`fstat`) was read.
    public init(copying fd: Int32, subject path: String, limit: Int) throws(WholeFile.ReadError) {
        let status = try WholeFile.regularFileStatus(fd, path, call: "read")
        identity = FileStatus.Identity(status)
        let size = identity.size
        guard size <= limit else { throw .tooLarge(limit: limit) }
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var failure: WholeFile.ReadError?
        var done = 0
        while done < size {
            let n: Int
            do {
                n = try blockingSyscall("pread", path) {
                    pread(fd, buffer.baseAddress! + done, size - done, off_t(done))
                }
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
            buffer.deallocate()
            throw failure
        }
        bytes = UnsafeRawBufferPointer(buffer)
    }

    deinit {
        if bytes.baseAddress != nil { UnsafeMutableRawBufferPointer(mutating: bytes).deallocate() }
    }
}
