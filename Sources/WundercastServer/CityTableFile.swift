#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WundercastCore
import WundercastPOSIX

/// The city table of `[Places] Cities=`, as the daemon reads it.
///
/// A binary image (`cities.bin`, ``CityTableImage``) is checked once when loaded, then mapped
/// read-only for each lookup and unmapped after it: between lookups none of it is resident
/// (the kernel keeps the file in its page cache, shared and reclaimable). A lookup costs an
/// `fstat`, an `mmap` and a `munmap`; when the file changed in place (its device, inode, size
/// or modification time differ) it is checked again, and while it is not a valid table the
/// lookups find nothing. A file renamed over the path (`make install`) is not seen until
/// restart: the descriptor keeps the old one.
///
/// A text table (``CityTableFormat``, for tables people make themselves) is parsed onto the
/// heap and stays resident: about as much memory as its image.
final class CityTableFile: CitySource, Sendable {
    let path: String
    /// A text table, parsed.
    private let parsed: CityTable?
    /// An image: its open descriptor (-1 for a text table), and the identity of the file as it
    /// was last checked (nil: not valid when last read).
    private let descriptor: Int32
    private let checked: Mutex<MappedFile.Identity?>

    /// Largest file accepted (the real image is about 0.9 MB, its text 1.8 MB).
    static let limit = 8 << 20

    /// Loads the table at `path` and checks it.
    ///
    /// - Throws: ``WholeFile/ReadError`` (cannot read, too large) or ``CityTableError`` (not a
    ///   table, or a bad line or section).
    init(path: String) throws {
        self.path = path
        let fd = try WholeFile.openForReading(path)
        do {
            let file = try MappedFile(descriptor: fd, subject: path, limit: Self.limit)
            if CityTableImage.isImage(file.bytes) {
                _ = try CityTable(image: file.bytes, owner: file)
                parsed = nil
                descriptor = fd
                checked = Mutex(file.identity)
            } else {
                parsed = try CityTable(parsing: file.bytes)
                try? Descriptor.close(fd)
                descriptor = -1
                checked = Mutex(nil)
                Memory.returnFreePages()  // parsing scratch, kept by malloc otherwise
            }
        } catch {
            try? Descriptor.close(fd)
            throw error
        }
    }

    deinit {
        if descriptor >= 0 { try? Descriptor.close(descriptor) }
    }

    func withTable<Result>(_ body: (CityTable) -> Result) -> Result? {
        if let parsed { return body(parsed) }
        guard let file = try? MappedFile(descriptor: descriptor, subject: path, limit: Self.limit) else { return nil }
        let trusted = checked.withLock { $0 == file.identity }
        guard let table = try? CityTable(image: file.bytes, owner: file, trusted: trusted) else {
            checked.withLock { $0 = nil }
            return nil
        }
        if !trusted { checked.withLock { $0 = file.identity } }
        return body(table)
    }
}
