#if canImport(Glibc)
import Glibc
#endif

/// Looking up users' groups in the system's databases (`/etc/group`, NSS).
public enum GroupDatabase {
    /// The id of the group called `name` (`getgrnam_r`), or `nil` when no such group exists.
    ///
    /// - Throws: ``Errno`` when the lookup itself failed (`EIO`, `EMFILE`, …), not for a
    ///   missing group.
    public static func gid(named name: String) throws(Errno) -> UInt32? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var size = 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let code = getgrnam_r(name, &group, &buffer, size, &result)
            if code == ERANGE && size < 1 << 20 {
                size *= 4
                continue
            }
            if code == EINTR { continue }
            // 0 with no result, ENOENT, ESRCH, EBADF, EPERM: "not found" (getgrnam_r(3)).
            if code == 0 || [ENOENT, ESRCH, EBADF, EPERM].contains(code) {
                return result == nil ? nil : group.gr_gid
            }
            throw Errno(call: "getgrnam_r", subject: name, code: code)
        }
    }
}
