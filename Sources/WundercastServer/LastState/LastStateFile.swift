#if canImport(Glibc)
import Glibc
#endif
import WundercastSupport
import WundercastPipeline
import WundercastPOSIX

/// The file that keeps the last weather across restarts (``WundercastPipeline/LastState``): read
/// once at start-up, replaced atomically after each change worth keeping.
struct LastStateFile: Sendable {
    /// What ``load()`` found.
    enum Loaded: Equatable {
        /// No file (the first start, or nothing was ever kept).
        case absent
        /// A valid file.
        case valid(LastState)
        /// The file was refused and renamed to ``asidePath`` (`reason`: what was wrong); `setAside`
        /// is `false` when even the rename failed (`reason` then says why too).
        case refused(reason: String, setAside: Bool)
        /// The file could not be read (permissions, I/O): left where it is.
        case unreadable(reason: String)
        /// Something other than a regular file is at the path (`kind`: `a directory`, `a device`,
        /// `a FIFO`, `a socket`, `a symbolic link`): left alone, and nothing may be written there.
        case notAFile(kind: String)
    }

    /// Absolute path of the file.
    let path: String

    /// Where a refused file goes: `PATH.corrupt` (an older one there is replaced).
    var asidePath: String { path + ".corrupt" }

    /// Reads the file (regular files only, at most ``WundercastPipeline/LastState/sizeLimit``
    /// bytes, never blocking on a FIFO) and decodes it. A regular file too large or not a valid
    /// state of this version is renamed aside; anything else at the path (checked with `lstat`,
    /// so a symbolic link is not followed) is ``Loaded/notAFile(kind:)`` and never renamed.
    /// Temporary files that a crash left beside it are removed first.
    ///
    /// The bytes are redacted with `secrets` (the provider's key) before they are decoded: a
    /// file kept by an earlier version may hold a key a provider echoed in a text. Such a file
    /// is rewritten at once without it (when that fails, it stays until the next write).
    func load(redacting secrets: Secrets = .none) -> Loaded {
        if let kind = Self.otherThanRegularFile(at: path) { return .notAFile(kind: kind) }
        WholeFile.removeTemporaries(of: path)
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path: path, limit: LastState.sizeLimit)
        } catch {
            switch error {
            case .system(let errno) where errno.code == ENOENT: return .absent
            case .system(let errno) where errno.code == EISDIR: return .notAFile(kind: "a directory")
            case .system(let errno): return .unreadable(reason: errno.description)
            case .notRegularFile: return .notAFile(kind: error.reason)
            case .tooLarge: return setAside(because: error.reason)
            case .changedWhileReading: return .unreadable(reason: error.reason)
            }
        }
        let clean = secrets.redact(bytes)
        do {
            let state = try LastState.decode(clean)
            if clean != bytes { try? self.write(state) }
            return .valid(state)
        } catch {
            return setAside(because: error.description)
        }
    }

    /// Writes `record` atomically, readable by the daemon's user only (0600).
    ///
    /// - Throws: ``WundercastPOSIX/Errno`` of the failing step.
    func write(_ record: LastState) throws(Errno) {
        try WholeFile.writeAtomically(record.encoded(), to: path, permissions: 0o600)
    }

    /// What is at `path` when it is there and not a regular file (`lstat`: a symbolic link is
    /// itself); `nil` for a regular file or nothing.
    static func otherThanRegularFile(at path: String) -> String? {
        guard let kind = FileStatus.kind(at: path), kind != .regular else { return nil }
        return kind.phrase
    }

    private func setAside(because reason: String) -> Loaded {
        do {
            try FileStatus.rename(path, to: asidePath)
            return .refused(reason: reason, setAside: true)
        } catch {
            return .refused(reason: "\(reason); cannot set it aside: \(error)", setAside: false)
        }
    }
}
