#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors.
public enum DescriptorLimit {
    /// The soft `RLIMIT_NOFILE` now, or `nil` when unlimited or unreadable.
    public static func soft() -> Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        return Int(clamping: limit.rlim_cur)
    }
}

/// The one owner of "keep descriptors free": the daemon keeps the top ``count`` descriptor
/// numbers below the limit (`RLIMIT_NOFILE`) for what it cannot refuse — libdispatch's and
/// glibc's own `open`s of `/proc` files (libdispatch traps when one fails with `EMFILE`), a log
/// line, an error answer. Every descriptor the daemon makes and keeps asks it: accepted
/// clients (refused with `too-many-clients`), libcurl's connections, the gpsd connection, files
/// read or written, Unix connections, inotify and rtnetlink sockets.
///
/// The kernel hands out the lowest free number, so a new descriptor at or above
/// `limit − count` means fewer than `count` are left free; and as long as every descriptor kept
/// is below `limit − count`, at most `limit − count` are open. One `getrlimit` per question, so
/// a limit changed at run time (`prlimit`) counts at once.
public enum DescriptorReserve {
    /// Descriptors kept free: 8.
    public static let count = 8

    /// Whether `fd`, just made, keeps the reserve free under `limit` (the soft `RLIMIT_NOFILE`
    /// by default; `nil`: unlimited, always true).
    public static func admits(_ fd: Int32, limit: Int? = DescriptorLimit.soft()) -> Bool {
        guard let limit else { return true }
        return Int(fd) < limit - count
    }

    /// `fd`, just made by `call`, if it keeps the reserve (``admits(_:limit:)``); else `fd` is
    /// closed and ``Errno`` `EMFILE` is thrown, its subject naming the limit and the reserve.
    ///
    /// - Throws: ``Errno`` named `call`, code `EMFILE`, subject `SUBJECT (the last 8 of the
    ///   descriptor limit 16 are kept free)`.
    public static func claim(_ fd: Int32, _ call: String, _ subject: @autoclosure () -> String) throws(Errno) -> Int32 {
        let limit = DescriptorLimit.soft()
        guard !admits(fd, limit: limit), let limit else { return fd }
        try? Descriptor.close(fd)
        throw Errno(call: call, subject: "\(subject()) (\(reason(limit: limit)))", code: EMFILE)
    }

    /// What a refusal says: `the last 8 of the descriptor limit 16 are kept free`.
    public static func reason(limit: Int) -> String {
        "the last \(count) of the descriptor limit \(limit) are kept free"
    }

    /// A non-blocking, close-on-exec socket (`socket(2)`) that keeps the reserve: for a C
    /// library that lets its caller make its sockets (libcurl's `CURLOPT_OPENSOCKETFUNCTION`).
    ///
    /// - Throws: ``Errno`` from `socket` (`EMFILE`, `EAFNOSUPPORT`, …) or the reserve's `EMFILE`
    ///   (``claim(_:_:_:)``); `subject` names what it is for.
    public static func socket(
        family: Int32, type: Int32, protocol: Int32, subject: @autoclosure () -> String
    ) throws(Errno) -> Int32 {
        let fd = try blockingSyscall("socket", subject()) {
            Glibc.socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        }
        return try claim(fd, "socket", subject())
    }
}
