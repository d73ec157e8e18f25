import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Sockets passed by socket activation (`LISTEN_FDS`, `LISTEN_PID`, `LISTEN_FDNAMES`).
public enum ListenSockets {
    /// Takes the sockets passed by the service manager, with their names
    /// (`FileDescriptorName=`, e.g. `"control"`; `"unknown"` when unnamed): fds 3, 4, …
    /// marked close-on-exec. The `LISTEN_*` variables are unset so that children do not
    /// believe the sockets are theirs; a second call returns `[]`.
    /// Empty when not socket-activated, and on error (see ``takeOrThrow()``).
    public static func take() -> [(fd: Int32, name: String)] {
        (try? takeOrThrow()) ?? []
    }

    /// ``take()``, throwing the errno of `sd_listen_fds_with_names` (e.g. `EINVAL` when
    /// `LISTEN_FDNAMES` does not name every fd, `EBADF` when a passed fd is not open).
    public static func takeOrThrow() throws(SystemdError) -> [(fd: Int32, name: String)] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        let count = sd_listen_fds_with_names(1, &names)
        // `names` is a NULL-terminated strv that libsystemd allocates only when count > 0.
        defer { freeNames(names) }
        if count < 0 { throw SystemdError(function: "sd_listen_fds_with_names", errno: -count) }
        return sockets(count: Int(count), names: names)
    }

    /// Pairs fds `SD_LISTEN_FDS_START…` with the first `count` names (`"unknown"` for a
    /// missing one). Does not free `names`.
    static func sockets(
        count: Int, names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> [(fd: Int32, name: String)] {
        var result: [(fd: Int32, name: String)] = []
        var namesEnded = names == nil
        for index in 0..<max(0, count) {
            var name = "unknown"
            if !namesEnded, let names {
                if let cName = names[index] { name = String(cString: cName) } else { namesEnded = true }
            }
            result.append((fd: SD_LISTEN_FDS_START + Int32(index), name: name))
        }
        return result
    }

    /// Frees a NULL-terminated array of `malloc`ed strings and the array itself (`strv_free`).
    static func freeNames(_ names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        guard let names else { return }
        var index = 0
        while let name = names[index] {
            free(name)
            index += 1
        }
        free(names)
    }
}
