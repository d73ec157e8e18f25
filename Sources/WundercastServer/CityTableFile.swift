import Synchronization
import WundercastPlaces
import WundercastPOSIX

/// The city table of `[Places] Cities=`, as the daemon holds it: **one shared copy** in memory,
/// owned here and nowhere else, read again only when the file's identity changes.
///
/// The file (a binary image, `cities.bin`, ``CityTableImage``, or a text table,
/// ``CityTableFormat``) is read whole into heap memory of its own (``FileCopy``: `pread`, never
/// a mapping of the file, so a file rewritten in place cannot raise `SIGBUS`), checked once and
/// kept: about 0.9 MB for the real image, which lookups read in place. Each lookup compares the
/// file's identity (device, inode, size, modification time: one `stat`, no read) with the copy's;
/// when it differs the file is read and checked again — by a lookup that may block
/// (`reloading: true`: off the reactor; a pipeline lookup comes with every state change), one at
/// a time (another lookup meanwhile serves the copy it has). A lookup on the reactor never reads:
/// it serves the copy until a lookup off it has read the new one. A file renamed over the path
/// (`make install`) is seen as well as one changed in place.
///
/// A new file that is not a valid table (truncated, damaged, unreadable) is reported once with
/// the path and the reason, and the last good copy keeps serving, until the file changes again.
final class CityTableFile: CitySource, Sendable {
    /// Reads the file at `path`, accepting at most `limit` bytes (``FileCopy/init(path:limit:)``;
    /// tests count the reads).
    typealias Reader = @Sendable (_ path: String, _ limit: Int) throws -> FileCopy

    let path: String
    private let read: Reader
    /// Called with one line when a changed file was read again (`valid`) or was refused.
    private let report: @Sendable (_ valid: Bool, _ line: String) -> Void

    private struct State {
        /// The copy lookups read, and the identity of the file it was read from.
        var table: CityTable
        var identity: FileStatus.Identity
        /// The identity of the last file refused, not read again until it changes.
        var refused: FileStatus.Identity?
        /// How often the copy was replaced by a new one (``generation``).
        var generation: UInt64 = 0
    }
    private let state: Mutex<State>
    /// Held while the file is read again: one reload at a time.
    private let reloading = Mutex<Void>(())

    /// Largest file accepted (the real image is about 0.9 MB, its text 1.8 MB).
    static let limit = 8 << 20

    /// Reads the table at `path` and checks it.
    ///
    /// - Parameter read: how the file is read (tests count the reads).
    /// - Throws: ``WholeFile/ReadError`` (cannot read, too large) or ``CityTableError`` (not a
    ///   table, or a bad line or section).
    init(
        path: String, read: @escaping Reader = { try FileCopy(path: $0, limit: $1) },
        report: @escaping @Sendable (_ valid: Bool, _ line: String) -> Void = { _, _ in }
    ) throws {
        self.path = path
        self.read = read
        self.report = report
        let file = try read(path, Self.limit)
        state = Mutex(State(table: try Self.table(of: file), identity: file.identity))
    }

    /// The table in `file`: an image is used where it lies (``CityTable`` keeps `file`), a text
    /// table is parsed onto the heap (and `file` freed after).
    private static func table(of file: FileCopy) throws -> CityTable {
        if CityTableImage.isImage(file.bytes) { return try CityTable(image: file.bytes, owner: file) }
        defer { Memory.returnFreePages() }  // parsing scratch, kept by malloc otherwise
        return try CityTable(parsing: file.bytes)
    }

    /// Bytes held by the copy (the image's size).
    var heldBytes: Int { state.withLock { $0.table.heldBytes } }

    /// Name lookups (``PlaceResolver``, an actor: never on the reactor) may read a changed file.
    func withTable<Result>(_ body: (CityTable) -> Result) -> Result? {
        withTable(reloading: true, body)
    }

    /// Counts the copies read after the first: checks the file's identity first, as a lookup
    /// off the reactor does (``PlaceResolver`` forgets the names it found in an older copy).
    var generation: UInt64 {
        _ = table(reloading: true)
        return state.withLock { $0.generation }
    }

    /// `body` run with the copy, after reading the file again when its identity changed and
    /// `reloading` allows it (false on the reactor: no read there). Never nil: the last good
    /// copy serves when the file is gone or bad.
    func withTable<Result>(reloading: Bool, _ body: (CityTable) -> Result) -> Result? {
        body(table(reloading: reloading))
    }

    private func table(reloading allowed: Bool) -> CityTable {
        let held = state.withLock { $0 }
        guard allowed, let now = FileStatus.identity(at: path), now != held.identity, now != held.refused else {
            return held.table
        }
        return reloading.withLockIfAvailable { _ in reload() } ?? state.withLock { $0.table }
    }

    /// Reads the file again unless someone did while this waited; called with ``reloading`` held.
    private func reload() -> CityTable {
        let held = state.withLock { $0 }
        guard let now = FileStatus.identity(at: path), now != held.identity, now != held.refused else {
            return held.table
        }
        do {
            let file = try read(path, Self.limit)
            let table = try Self.table(of: file)
            state.withLock { $0 = State(table: table, identity: file.identity, generation: $0.generation + 1) }
            report(true, "the city table \(path) changed and was read again: \(table.count) cities")
            return table
        } catch {
            state.withLock { $0.refused = now }
            report(
                false,
                "the city table \(path) changed and cannot be used: \(error); the last good table (\(held.table.count) cities) keeps serving"
            )
            return held.table
        }
    }
}
