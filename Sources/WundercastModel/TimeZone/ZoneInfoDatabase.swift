#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The IANA time-zone database of the machine (`/usr/share/zoneinfo`, Debian's `tzdata`),
/// read zone by zone through an injected file reader (WundercastModel makes no system calls;
/// the daemon passes its whole-file reader) and kept in a small cache.
///
/// Zone names come from outside (the city table, a provider's `timezone`): a name is used as
/// a path only after ``validatedName(_:)`` accepted it.
public final class ZoneInfoDatabase: Sendable {
    /// Errors of ``zone(named:)``.
    public enum LookupError: Error, Equatable, Sendable {
        /// Not a zone name: empty, longer than ``maximumNameLength``, absolute, with `.` or
        /// `..` or empty components, or characters other than ASCII letters, digits, `_`,
        /// `-`, `+` and `/`.
        case invalidName
        /// No such zone (the reader failed: missing file, a directory, too large, unreadable).
        case unknownZone(String)
        /// The file is not a valid TZif file.
        case malformed(zone: String, reason: String)
    }

    /// Longest accepted name; the longest IANA name today is 32 characters.
    public static let maximumNameLength = 64
    /// Largest file read; Debian's largest zone file is under 4 KB.
    public static let maximumFileSize = 64 << 10
    /// Zones kept in memory at most (the least recently loaded goes first).
    static let cacheLimit = 64

    /// The directory (`/usr/share/zoneinfo` by default), without a trailing slash.
    public let directory: String
    private let read: @Sendable (_ path: String, _ limit: Int) throws -> [UInt8]
    private let cache = Mutex<[(name: String, zone: ZoneInfo)]>([])

    /// - Parameters:
    ///   - directory: where the zone files are.
    ///   - read: reads a whole file of at most `limit` bytes, throwing when it cannot (any
    ///     error: it becomes ``LookupError/unknownZone(_:)``).
    public init(
        directory: String = "/usr/share/zoneinfo",
        read: @escaping @Sendable (_ path: String, _ limit: Int) throws -> [UInt8]
    ) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.read = read
    }

    /// The zone `name` (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`).
    public func zone(named name: String) throws(LookupError) -> ZoneInfo {
        guard let name = Self.validatedName(name) else { throw .invalidName }
        if let hit = cache.withLock({ entries in entries.first { $0.name == name }?.zone }) { return hit }
        let bytes: [UInt8]
        do {
            bytes = try read(directory + "/" + name, Self.maximumFileSize)
        } catch {
            throw .unknownZone(name)
        }
        let zone: ZoneInfo
        do {
            zone = try ZoneInfo(parsing: bytes)
        } catch {
            switch error {
            case .malformed(let reason): throw .malformed(zone: name, reason: reason)
            }
        }
        cache.withLock { entries in
            if !entries.contains(where: { $0.name == name }) {
                if entries.count >= Self.cacheLimit { entries.removeFirst() }
                entries.append((name, zone))
            }
        }
        return zone
    }

    /// The offset in force in zone `name` at `date`, or `nil` when the name is invalid or the
    /// zone unknown or unreadable.
    public func offset(zone name: String, at date: Date) -> ZoneOffset? {
        try? zone(named: name).offset(at: date)
    }

    /// `name` if it can be a zone name and safely be a path below the database directory:
    /// components of ASCII letters, digits, `_`, `-`, `+` (`Etc/GMT+5`), separated by single
    /// `/`, none of them `.` or `..`, not starting with `/` or `-`, at most
    /// ``maximumNameLength`` bytes; else `nil`.
    public static func validatedName(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumNameLength else { return nil }
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let first = component.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "."),
                component.allSatisfy(isNameByte)
            else { return nil }
        }
        return name
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"):
            true
        default: false
        }
    }
}
