#if canImport(Glibc)
import Glibc
#endif
import WundercastPOSIX

/// stdout and stderr, unbuffered: every line reaches a status bar as soon as it is written
/// (`write(2)` per line; stdout may be a pipe, where stdio would buffer).
enum Output {
    /// Writes `text` to stdout at once. A reader that has gone (`EPIPE`: the bar quit) ends the
    /// program with status 0; SIGPIPE is ignored (``Ctl/main(_:)``).
    static func write(_ text: String) {
        guard !text.isEmpty else { return }
        do {
            try Descriptor.writeAll(1, Array(text.utf8), subject: "stdout")
        } catch {
            ProcessControl.exit(error.code == EPIPE ? 0 : 1)
        }
    }

    /// `wundercastctl: message` on stderr.
    static func error(_ message: String) {
        StandardError.write("wundercastctl: \(message)\n")
    }
}
