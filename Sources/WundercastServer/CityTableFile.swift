#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WundercastPlaces
import WundercastPOSIX

/// The city table of `[Places] Cities=`, as the daemon reads it.
///
/// A binary image (`cities.bin`, ``CityTableImage``) is checked once when loaded, then read
/// for each lookup into memory of its own (``MappedFile/init(copying:subject:limit:)``: `pread`
/// into an anonymous mapping, about 0.1 ms) that is unmapped after it: between lookups none of
/// it is resident (the kernel keeps the file in its page cache). A copy, not a mapping of the
/// file: a file rewritten in place (`cp` over it) would raise `SIGBUS` in a reader of a
/// mapping. When the file changed (its device, inode, size or modification time differ) it is
/// checked again, logged when it turns invalid or valid; while it is not a valid table, name
/// lookups answer that the table cannot be read and places are left out. A damaged file that
/// keeps its identity gives wrong or no cities, never a trap. A file renamed over the path
/// (`make install`) is not seen until restart: the descriptor keeps the old one.
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
    /// Called with one line when the file turns invalid or valid again.
    private let report: @Sendable (_ valid: Bool, _ line: String) -> Void

    /// Largest file accepted (the real image is about 0.9 MB, its text 1.8 MB).
    static let limit = 8 << 20

    /// Loads the table at `path` and checks it.
    ///
    /// - Throws: ``WholeFile/ReadError`` (cannot read, too large) or ``CityTableError`` (not a
    ///   table, or a bad line or section).
    init(path: String, report: @escaping @Sendable (_ valid: Bool, _ line: String) -> Void = { _, _ in }) throws {
        self.path = path
        self.report = report
        let fd = try WholeFile.openForReading(path)
        do {
            let file = try MappedFile(copying: fd, subject: path, limit: Self.limit)
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
        let table: CityTable
        do {
            let file = try MappedFile(copying: descriptor, subject: path, limit: Self.limit)
            let trusted = checked.withLock { $0 == file.identity }
            table = try CityTable(image: file.bytes, owner: file, trusted: trusted)
            if !trusted {
                checked.withLock { $0 = file.identity }
                report(true, "the city table \(path) changed and was checked again: \(table.count) cities")
            }
        } catch {
            let wasValid = checked.withLock { valid in
                defer { valid = nil }
                return valid != nil
            }
            if wasValid {
                report(
                    false,
                    "the city table \(path) changed and cannot be used: \(error); no place names until it is valid again"
                )
            }
            return nil
        }
        return body(table)
    }
}
