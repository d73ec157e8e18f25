import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastPipeline
import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastServer

/// The writer of the kept weather, in process, on a real directory: it writes when what it
/// keeps changes and only then (each rename is seen through inotify), drops the position when
/// GPS use is withdrawn, and says a failing write once.
@Suite(.timeLimit(.minutes(1))) struct LastStateWriterTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A writer on `directory/state.json` for `store`, and what each write left in the file.
    final class Running: Sendable {
        let file: LastStateFile
        let task: Task<Void, Never>
        let events: FileEvents
        /// The file's content after each rename into place, in order.
        let written = Observed<[LastState?]>([])

        init(store: StateStore, directory: String, log: CapturedLog = CapturedLog()) throws {
            let file = LastStateFile(path: directory + "/state.json")
            self.file = file
            let written = self.written
            events = try FileEvents(directory: directory) { event in
                guard event.kind == .movedIn, event.name == "state.json" else { return }
                let kept = (try? WholeFile.read(path: file.path, limit: LastState.sizeLimit)).flatMap {
                    try? LastState.decode($0)
                }
                written.update { $0.append(kept) }
            }
            let writer = LastStateWriter(
                store: store, file: file, recorder: LastStateRecorder(precision: 2, restored: nil),
                clock: ClockSync(file: nil), logger: log.logger)
            task = Task { await writer.run() }
        }

        /// Stops the writer (after its last look at the state) and waits until every event of
        /// the directory up to then has been read: a marker file's creation comes after them.
        func stop(directory: String) async throws {
            task.cancel()
            await task.value
            let marker = directory + "/marker"
            #expect(FileManager.default.createFile(atPath: marker, contents: nil))
            _ = try await events.events.wait("the marker") { $0.contains { $0.name == "marker" } }
            events.close()
        }
    }

    static func fix(_ latitude: Double) -> Position { Position(makeFix(latitude, 11.5678)) }

    static func show(_ store: StateStore, _ latitude: Double, fetching: Bool) {
        store.publishPosition(
            fix(latitude), rounded: Coordinate(latitude: latitude, longitude: 11.5678).rounded(toDecimals: 4),
            receivedAt: fetchedAt, fetching: fetching)
    }

    @Test func onlyAChangeOfTheKeptWeatherIsWritten() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        let running = try Running(store: store, directory: directory)
        Self.show(store, 48.1234, fetching: true)  // no weather yet: nothing to keep
        store.publishWeather(makeWeather(3), fetchedAt: Self.fetchedAt)
        _ = try await running.written.wait("the first write") { $0.count == 1 }
        // Status and error flap, the fix ages, the receiver moves within the kept 2 decimals.
        store.publishFailure(.transport(code: 7, message: "connection refused"))
        store.publishLocationProblem(.init(code: "no-fix", message: "no GPS fix for more than 2min"))
        store.publishLocationProblem(nil)
        Self.show(store, 48.1236, fetching: false)
        store.publishWeather(makeWeather(4), fetchedAt: Self.fetchedAt + 900)
        _ = try await running.written.wait("the second write") { $0.count >= 2 }
        try await running.stop(directory: directory)
        let written = running.written.value
        #expect(written.map { $0?.weather.temperature } == [3, 4], "\(written)")
        #expect(written.last??.location == .init(latitude: 48.12, longitude: 11.57, source: .gpsd))
        #expect(written.last??.fetchedAt == Self.fetchedAt + 900)
    }

    /// `authorize denied`: the store hides the position, and the file loses it.
    @Test func withdrawingGPSUseRemovesThePositionFromTheFile() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        let running = try Running(store: store, directory: directory)
        Self.show(store, 48.1234, fetching: true)
        store.publishWeather(makeWeather(3), fetchedAt: Self.fetchedAt)
        _ = try await running.written.wait("the first write") { $0.count == 1 }
        #expect(running.written.value.first??.location?.source == .gpsd)
        store.beginStatus(.denied, gate: .init(code: "denied", message: "GPS use is denied"))
        _ = try await running.written.wait("the write without the position") { $0.count == 2 }
        try await running.stop(directory: directory)
        let last = try #require(running.written.value.last ?? nil)
        #expect(last.location == nil)
        #expect(last.weather.temperature == 3, "the weather stays")
        // The file itself holds no coordinate any more.
        let text = String(decoding: try WholeFile.read(path: running.file.path, limit: 1 << 20), as: UTF8.self)
        #expect(!text.contains("latitude") && !text.contains("48.1"))
    }

    /// A write that fails is said once, tried again with the next change, and its recovery said.
    @Test func aFailingWriteIsLoggedOnce() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inner = directory + "/not-yet"
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        let log = ObservedLog()
        let file = LastStateFile(path: inner + "/state.json")
        let writer = LastStateWriter(
            store: store, file: file, recorder: LastStateRecorder(precision: 2, restored: nil),
            clock: ClockSync(file: nil), logger: Logger(sink: log, threshold: .debug))
        let task = Task { await writer.run() }
        // Each failed attempt leaves a line: the warning, then debug lines.
        for (index, temperature) in [1.0, 2, 3].enumerated() {
            store.publishWeather(makeWeather(temperature), fetchedAt: Self.fetchedAt + temperature)
            _ = try await log.entries.wait("failed write \(index + 1)") { $0.count == index + 1 }
        }
        #expect(mkdir(inner, 0o700) == 0)
        let events = try FileEvents(directory: inner)
        store.publishWeather(makeWeather(4), fetchedAt: Self.fetchedAt + 4)
        _ = try await events.events.wait("the write once the directory exists") {
            $0.contains(.init(kind: .movedIn, name: "state.json"))
        }
        task.cancel()
        await task.value
        let entries = log.entries.value
        #expect(entries.filter { $0.priority == .debug }.count == 2)
        let warnings = entries.filter { $0.priority == .warning }.map(\.message)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("cannot keep the last weather in \(file.path): ") == true)
        #expect(entries.contains { $0.priority == .notice && $0.message.contains("again") })
        guard case .valid(let kept) = file.load() else {
            Issue.record("no valid file: \(file.load())")
            return
        }
        #expect(kept.weather.temperature == 4)
    }
}

/// Log entries as they come, to wait on.
final class ObservedLog: LogSink {
    struct Entry: Sendable {
        var priority: LogPriority
        var message: String
    }
    let entries = Observed<[Entry]>([])

    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        entries.update { $0.append(Entry(priority: priority, message: message)) }
    }
}
