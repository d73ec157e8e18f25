#if canImport(Glibc)
import Glibc
#endif

/// Directory listings and what a path is, for reading drop-in directories
/// (`wundercast.conf.d/`).
public enum Directory {
    /// The names in the directory at `path` (without `.` and `..`), in no particular order;
    /// `nil` when there is no such directory (`ENOENT`, or `ENOTDIR` for a path through a file).
    ///
    /// - Throws: ``Errno`` of `opendir` (e.g. `EACCES`) or `readdir` (e.g. `EIO`).
    public static func names(in path: String) throws(Errno) -> [String]? {
        guard let stream = opendir(path) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Errno(call: "opendir", subject: path, code: code)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw Errno(call: "readdir", subject: path, code: errno) }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// What a path leads to, symbolic links followed.
    public enum Kind: Sendable, Equatable {
        case regularFile
        case directory
        /// `/dev/null` itself (the character device `/dev/null` is), as a link that masks a drop-in leads to.
        case nullDevice
        /// A FIFO, socket or another device.
        case other
    }

    /// What `path` is (`stat`, following symbolic links).
    ///
    /// - Throws: ``Errno`` of `stat` (`ENOENT` for a missing path or a dangling link, `EACCES`).
    public static func kind(of path: String) throws(Errno) -> Kind {
        var status = stat()
        _ = try blockingSyscall("stat", path) { stat(path, &status) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFCHR where status.st_rdev == nullDevice(): return .nullDevice
        default: return .other
        }
    }

    /// The device number of `/dev/null` (1:3 on Linux), or an impossible one if it cannot be read.
    private static func nullDevice() -> dev_t {
        var status = stat()
        return stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR ? status.st_rdev : dev_t.max
    }
}
