import Foundation
import Testing
import WundercastSupport
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `wundercastd` as systemd runs it, with stderr connected to the journal (`JOURNAL_STREAM`
/// names the stream on fd 2): its log becomes structured journal entries, one per published
/// weather change, with the `WUNDERCAST_*` fields that `journalctl` can match on.
///
/// The daemon runs with GPS denied and a fallback place, against the loopback server of
/// recorded Open-Meteo answers. libsystemd always writes to `/run/systemd/journal/socket`:
/// - no journald here, and root: a ``JournalStandIn`` is bound there while the daemon runs,
///   and only the datagrams that our daemon's process sent are kept (their sender's pid);
/// - a running journald: the entries are read back with `journalctl -o json _PID=…`;
/// - otherwise: disabled.
///
/// Not serialized: the stand-in tests queue for the one socket path in
/// ``JournalStandIn/open(timeout:)``.
@Suite struct DaemonJournalTests {
    static var mode: JournalStandIn.Availability { JournalStandIn.availability }

    func configuration(_ http: FixtureHTTPServer) -> String {
        """
        [Location]
        Authorization=denied
        GPSD=127.0.0.1:1
        Fallback=59.9139,10.7522
        [Weather]
        URL=\(http.baseURL)
        Precision=2
        """
    }

    static func fresh(_ entry: JournalEntry) -> Bool {
        entry["MESSAGE_ID"] == MessageID.weatherChanged && entry["WUNDERCAST_STATUS"] == "fresh"
    }

    static func summary(_ entries: [JournalEntry]) -> String {
        entries.map { "[\($0.senderPID.map(String.init) ?? "?")] \($0["MESSAGE"] ?? "(no MESSAGE)")" }
            .joined(separator: "\n")
    }

    /// The daemon does not translate: its journal, `STATUS=` and JSON are for administrators,
    /// the catalog and programs, whatever the locale of its environment (wundercastctl's is the
    /// reader's); here German, with wundercastctl's catalogues at hand.
    static func germanEnvironment() throws -> [String: String] {
        ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "WUNDERCAST_LOCALEDIR": try MessageCatalogs.directory()]
    }

    @Test(.enabled(if: mode == .standIn, "needs root and no journald"))
    func weatherChangesBecomeStructuredEntriesOnTheNativeSocket() async throws {
        let journal = try await JournalStandIn.open()
        defer { journal.close() }
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: configuration(http), environment: try Self.germanEnvironment(), journalStream: true)
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh fallback weather") {
            $0["status"] as? String == "fresh"
        }
        #expect((state["weather"] as? [String: Any])?["condition"] as? String == "Clear sky", "\(state)")
        // The journal entry follows the state that watchers see.
        let pid = daemon.pid
        let arrived = await journal.waitForEntries(timeout: .seconds(10), "a fresh weather entry") {
            $0.contains { $0.senderPID == pid && Self.fresh($0) }
        }
        #expect(await daemon.stop() == 0)
        // Once the daemon has exited, all it sent is queued (its stop entry too): closing takes it.
        journal.close()

        let ours = journal.entries(from: daemon.pid)
        try #require(
            arrived, "no fresh weather entry from pid \(daemon.pid); received:\n\(Self.summary(journal.entries))")
        // Every datagram of the daemon is well-formed native protocol.
        #expect(journal.datagrams.filter { $0.senderPID == daemon.pid }.count == ours.count)
        try check(ours, daemon: daemon, http: http)
        #expect(ours.contains { $0["MESSAGE"] == "stopping" }, "\(Self.summary(ours))")
        // The log went to the journal, not to stderr as well.
        #expect(!daemon.log.contains("serving on"), "stderr: \(daemon.log)")
    }

    @Test(.enabled(if: mode == .journald, "needs a running journald"))
    func weatherChangesReadBackWithJournalctl() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: configuration(http), journalStream: true)
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh fallback weather") {
            $0["status"] as? String == "fresh"
        }
        _ = try await Journalctl.waitForEntry(
            ["_PID=\(daemon.pid)", "SYSLOG_IDENTIFIER=wundercastd"], "a fresh weather entry in the journal"
        ) { $0.contains(MessageID.weatherChanged) && $0.contains("\"WUNDERCAST_STATUS\":\"fresh\"") }
        let ours = try await Journalctl.entries(["_PID=\(daemon.pid)", "SYSLOG_IDENTIFIER=wundercastd"])
        try #require(
            ours.contains(where: Self.fresh), "no fresh weather entry from pid \(daemon.pid):\n\(Self.summary(ours))")
        try check(ours, daemon: daemon, http: http)
        #expect(await daemon.stop() == 0)
    }

    /// A `JOURNAL_STREAM` that names some other file (a variable inherited from a parent whose
    /// stderr was the journal) is not trusted: the daemon logs on stderr and sends nothing.
    @Test(.enabled(if: mode == .standIn, "needs root and no journald"))
    func aJournalStreamOfAnotherFileKeepsTheLogOnStderr() async throws {
        let journal = try await JournalStandIn.open()
        defer { journal.close() }
        var other = stat()
        try #require(stat(JournalStandIn.socketPath, &other) == 0)
        let daemon = try await DaemonProcess(
            configuration: "[Location]\nAuthorization=denied\nGPSD=127.0.0.1:1\n",
            environment: ["JOURNAL_STREAM": "\(other.st_dev):\(other.st_ino)"])
        _ = try? await daemon.output.waitFor(containing: "serving on", timeout: .seconds(20))
        #expect(daemon.log.contains("serving on"), "stderr: \(daemon.log)")
        #expect(await daemon.stop() == 0)
        journal.close()
        #expect(journal.datagrams.filter { $0.senderPID == daemon.pid }.isEmpty, "\(Self.summary(journal.entries))")
    }

    /// The fields of the daemon's entries, however they were read back.
    func check(_ ours: [JournalEntry], daemon: DaemonProcess, http: FixtureHTTPServer) throws {
        // The native socket has no _PID: the sender's pid came with the datagram; still, all
        // of them name the daemon.
        for entry in ours {
            #expect(entry.values("SYSLOG_IDENTIFIER") == ["wundercastd"], "\(entry.fields.map(\.name))")
            #expect(entry.values("MESSAGE").count == 1)
            #expect(entry.values("PRIORITY").count == 1)
        }

        let started = try #require(
            ours.first { $0["MESSAGE_ID"] == MessageID.started }, "no started entry:\n\(Self.summary(ours))")
        #expect(started["PRIORITY"] == "5")
        #expect(started["MESSAGE"]?.contains("serving on \(daemon.socketPath)") == true, "\(started["MESSAGE"] ?? "")")

        let changes = ours.filter { $0["MESSAGE_ID"] == MessageID.weatherChanged }
        let fresh = try #require(changes.first(where: Self.fresh), "no fresh entry:\n\(Self.summary(ours))")
        func value(_ name: String) -> String? {
            let values = fresh.values(name)
            #expect(values.count <= 1, "\(name) appears \(values.count) times")
            return values.first
        }
        #expect(value("PRIORITY") == "6")
        #expect(value("SYSLOG_IDENTIFIER") == "wundercastd")
        #expect(value("MESSAGE")?.hasPrefix("weather: -5°C Clear sky") == true, "\(value("MESSAGE") ?? "")")
        #expect(value("WUNDERCAST_STATUS") == "fresh")
        // The recorded Open-Meteo answer.
        #expect(value("WUNDERCAST_TEMPERATURE") == "-5.3")
        #expect(value("WUNDERCAST_TEMPERATURE_UNIT") == "°C")
        #expect(value("WUNDERCAST_WEATHER_CODE") == "0")
        #expect(value("WUNDERCAST_PROVIDER") == "open-meteo")
        // The fallback place, requested at [Weather] Precision=2 (59.91,10.75), in the journal
        // at [Journal] Precision= (default 1).
        #expect(value("WUNDERCAST_LATITUDE") == "59.9")
        #expect(value("WUNDERCAST_LONGITUDE") == "10.8")
        #expect(value("WUNDERCAST_ERROR") == nil)
        #expect(value("CODE_FILE")?.hasSuffix("Publisher.swift") == true, "\(value("CODE_FILE") ?? "")")
        #expect(value("CODE_LINE").flatMap { Int($0) } != nil)
        #expect(value("CODE_FUNC") == "run()")
        #expect(started["CODE_FUNC"]?.isEmpty == false)
        #expect(started["WUNDERCAST_VERSION"] == Wundercast.version)
        #expect(started["WUNDERCAST_AUTHORIZATION"] == "denied")
        // No finer form of the position in any entry.
        for entry in ours {
            for field in entry.fields {
                let text = String(decoding: field.value, as: UTF8.self)
                #expect(!text.contains("59.91") && !text.contains("10.75"), "\(field.name)=\(text)")
            }
        }
        // Every change entry says its status.
        #expect(changes.allSatisfy { $0.values("WUNDERCAST_STATUS").count == 1 }, "\(Self.summary(changes))")

        // The request URL (with the coordinates in its query) stays out of the journal.
        let requests = try http.requests().filter { $0.path == "/v1/forecast" }
        try #require(!requests.isEmpty, "no weather request reached the server")
        for request in requests {
            #expect(request.query["latitude"] == "59.91")
            for entry in ours {
                for field in entry.fields {
                    let text = String(decoding: field.value, as: UTF8.self)
                    #expect(!text.contains(request.queryString), "\(field.name) holds the request's query: \(text)")
                }
            }
        }
    }
}
