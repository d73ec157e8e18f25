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
