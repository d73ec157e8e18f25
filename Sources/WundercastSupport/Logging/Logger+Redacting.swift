extension Logger {
    /// This logger with every secret value replaced (``Secrets/redact(_:)``) in each message,
    /// each field value and the code location (`CODE_FILE`, `CODE_FUNC`) before it reaches the sink: the journal never sees a key, whatever a
    /// caller put in a line.
    public func redacting(_ secrets: Secrets) -> Logger {
        guard !secrets.isEmpty else { return self }
        return Logger(sink: RedactingLogSink(sink: sink, secrets: secrets), threshold: threshold)
    }
}

/// A sink that redacts secrets, then passes the entry on.
struct RedactingLogSink: LogSink {
    let sink: any LogSink
    let secrets: Secrets

    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        sink.log(
            priority, secrets.redact(message), fields: fields.map { ($0.0, secrets.redact($0.1)) },
            file: secrets.redact(file), line: line, function: secrets.redact(function))
    }
}
