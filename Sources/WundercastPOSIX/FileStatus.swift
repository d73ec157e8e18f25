#if canImport(Glibc)
import Glibc
#endif

/// What a path or a descriptor is, as `lstat(2)`/`fstat(2)` say, and the few changes the
/// daemon makes to files besides writing them.
public enum FileStatus {
    /// The kind of file at a path (a symbolic link is itself).
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, device, fifo, socket, other

        /// In a sentence: `a directory`, `a symbolic link`, …
        public var phrase: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a directory"
            case .symbolicLink: "a symbolic link"
            case .device: "a device"
            case .fifo: "a FIFO"
            case .socket: "a socket"
            case .other: "not a regular file"
            }
        }
    }

    /// What is at `path` (`lstat`), `nil` when nothing is (or it cannot be looked at).
    public static func kind(at path: String) -> Kind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFCHR, S_IFBLK: return .device
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// What identifies a file's contents: device, inode, size and modification time. A file
    /// replaced (renamed over its path) has another inode; one rewritten in place (`cp` over
    /// it) another size or modification time.
    public struct Identity: Sendable, Equatable, CustomStringConvertible {
        public var device: UInt64
        public var inode: UInt64
        /// Size in bytes.
        public var size: Int
        /// Modification time: seconds since the epoch, and nanoseconds within the second.
        public var modified: Int
        public var modifiedNanoseconds: Int

        public init(device: UInt64, inode: UInt64, size: Int, modified: Int, modifiedNanoseconds: Int) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
            self.modifiedNanoseconds = modifiedNanoseconds
        }

        init(_ status: stat) {
            self.init(
                device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int(status.st_size),
                modified: status.st_mtim.tv_sec, modifiedNanoseconds: status.st_mtim.tv_nsec)
        }

        /// `device 2049, inode 1234, 912345 bytes, modified 1764650000.123456789`.
        public var description: String {
            "device \(device), inode \(inode), \(size) bytes, modified \(modified).\(modifiedNanoseconds)"
        }
    }

    /// The identity of the file at `path`, following symbolic links (`stat`: no open, no read);
    /// `nil` when nothing is there or it cannot be looked at.
    public static func identity(at path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Identity(status)
    }

    /// The device and inode of the open descriptor `fd` (`fstat`), `nil` when it is not open.
    public static func identity(of fd: Int32) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// Sets the permission bits of `path` (`chmod`).
    /// - Throws: ``Errno`` (`ENOENT`, `EPERM`, …).
    public static func setMode(_ mode: UInt32, of path: String) throws(Errno) {
        _ = try blockingSyscall("chmod", path) { chmod(path, mode_t(mode)) }
    }

    /// Renames `from` to `to` (`rename`, replacing `to`).
    /// - Throws: ``Errno``.
    public static func rename(_ from: String, to: String) throws(Errno) {
        _ = try blockingSyscall("rename", "\(from) → \(to)") { Glibc.rename(from, to) }
    }
}
