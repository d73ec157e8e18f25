import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Tests that change the process environment (`NOTIFY_SOCKET`, `WATCHDOG_*`, `LISTEN_*`,
/// `JOURNAL_STREAM`) are nested in this suite and run one at a time: libsystemd reads the
/// variables with `getenv` on every call, and `setenv` is not safe against concurrent readers.
@Suite(.serialized) struct ProcessEnvironmentTests {}

/// Runs `body` with the variables in `changes` set (or unset, for `nil`), then restores them.
@discardableResult
func withEnvironment<T>(_ changes: [String: String?], _ body: () throws -> T) rethrows -> T {
    let saved = changes.keys.map { name in (name, getenv(name).map { String(cString: $0) }) }
    // Under the spawn lock: no other test's child is started while the variables change (and
    // children get the environment the process started with, not these).
    Spawn.changingEnvironment {
        for (name, value) in changes {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
    defer {
        Spawn.changingEnvironment {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
    }
    return try body()
}

/// The current value of the environment variable `name`.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
