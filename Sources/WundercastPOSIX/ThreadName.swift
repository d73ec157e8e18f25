#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's name as `top -H`, `ps -L` and `/proc/PID/task/*/comm` show it.
public enum ThreadName {
    /// Names the calling thread `name` (the kernel keeps 15 bytes). Glibc's Swift module does
    /// not export `pthread_setname_np` (it needs `_GNU_SOURCE`) and `prctl` is variadic, so the
    /// name is written to `/proc/thread-self/comm`, as `pthread_setname_np` itself does for
    /// another thread. A failure (no `/proc`) leaves the inherited name.
    public static func set(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        _ = close(fd)
    }
}
