#if canImport(Glibc)
import Glibc
#endif

/// The process environment, read with `getenv(3)`.
public enum Environment {
    /// The value of `name`, or `nil` when it is not set (an empty value is `""`).
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
