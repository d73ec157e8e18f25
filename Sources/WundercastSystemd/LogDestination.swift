import WundercastPOSIX
import WundercastSupport

/// Chooses where the daemon logs.
public enum LogDestination {
    /// A logger that writes structured entries to the journal (``JournalLogSink``) when
    /// stderr is connected to it, else readable lines on stderr (`StderrLogSink`).
    ///
    /// systemd sets `JOURNAL_STREAM=<device>:<inode>` for a service whose stderr is a
    /// journal stream; it is trusted only when it matches `fstat` of fd 2, since children
    /// inherit the variable but not necessarily the stream (sd_journal_stream_fd(3)).
    public static func automatic(identifier: String, threshold: LogPriority) -> Logger {
        if stderrIsJournal() {
            return Logger(sink: JournalLogSink(identifier: identifier), threshold: threshold)
        }
        return Logger(sink: StderrLogSink(), threshold: threshold)
    }

    /// Whether fd 2 is the stream named by `JOURNAL_STREAM`.
    static func stderrIsJournal() -> Bool {
        guard let value = Environment.value("JOURNAL_STREAM"), let stderr = FileStatus.identity(of: 2) else {
            return false
        }
        return matches(journalStream: value, device: stderr.device, inode: stderr.inode)
    }

    /// Whether `journalStream` (`"<device>:<inode>"`, both decimal) names this device and inode.
    static func matches(journalStream: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return false }
        return d == device && i == inode
    }
}
