import Foundation
import Synchronization
import Testing
import WundercastModel
import WundercastProtocol
import WundercastPOSIX
import WundercastServer
import WundercastTestSupport

/// An in-process ``SocketServer`` for tests: a socket in a private directory, time from a
/// ``ManualClock`` (time-outs and `watch every` move only when the test advances it), a fixed
/// wall clock (ages are predictable), and handlers that record what they were asked.
final class TestServer: @unchecked Sendable {
    let directory: String
    let path: String
    let clock = ManualClock()
    /// The wall clock the server stamps ages with.
    static let wallNow = Date(timeIntervalSince1970: 1_800_000_000)
    let server: SocketServer
    /// The server's jobs (lookups, decisions), as the daemon's socket service runs them.
    private var jobs: Task<Void, Never>?
    private let views: Observed<StateViews>
    let refreshes = Observed(0)
    let watchers = Observed<[Int]>([])
    /// Authorization decisions asked of the daemon (`nil`: shown).
    let authorizations = Observed<[AuthorizationStatus?]>([])
    /// Lookups asked, with the peer's reader class.
    let lookups = Observed<[ReaderClass]>([])
    /// While closed, lookups wait; ``openLookups()`` lets them all answer.
    let lookupsOpen = Observed(false)
    /// While closed, decisions wait (as one saving its file would); open by default.
    let decisionsOpen = Observed(true)

    init(
        settings: SocketServer.Settings = .init(), state: StateViews = TestServer.sample,
        directoryMode: mode_t = 0o700, loop: EventLoop? = nil
    ) throws {
        directory = try DatagramSocket.temporaryDirectory()
        chmod(directory, directoryMode)
        path = directory + "/s.sock"
        let views = Observed(state)
        self.views = views
        let (refreshes, watchers, authorizations, lookups, lookupsOpen, decisionsOpen) = (
            self.refreshes, self.watchers, self.authorizations, self.lookups, self.lookupsOpen, self.decisionsOpen
        )
        let authorization = Observed(AuthorizationStatus.authorizedAlways)
        server = try SocketServer(
            listenFD: try UnixSocket.listen(path: path, mode: 0o666),
            handlers: .init(
                currentState: { views.value },
                authorize: { status in
                    authorizations.update { $0.append(status) }
                    _ = try? await decisionsOpen.wait(timeout: .seconds(60), "decisions to be let through") { $0 }
                    return authorization.update {
                        if let status { $0 = status }
                        return $0
                    }
                },
                watchersChanged: { n in watchers.update { $0.append(n) } },
                refresh: { refreshes.update { $0 += 1 } },
                status: {
                    .init(
                        uptimeSeconds: 42, gpsd: .init(server: "127.0.0.1:2947", connected: true),
                        authorization: .authorizedAlways, provider: "open-meteo", state: .fresh,
                        counters: .init(requests: 7))
                },
                lookup: { request, peer in
                    lookups.update { $0.append(peer.reader) }
                    _ = try? await lookupsOpen.wait(timeout: .seconds(60), "lookups to be let through") { $0 }
                    let cell: String =
                        switch request {
                        case .weather(.name(let name)): name
                        default: "elsewhere"
                        }
                    return SocketProtocol.line(SocketProtocol.ErrorResponse(.noSuchPlace, message: "lookup \(cell)"))
                }),
            settings: settings, loop: loop, timer: .init(clock), wallClock: { TestServer.wallNow })
        server.start()
        let server = self.server
        jobs = Task { await server.runJobs() }
    }

    deinit {
        jobs?.cancel()
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Makes `state` the current one and broadcasts it.
    func set(_ state: StateViews) {
        views.update { $0 = state }
        server.broadcast(state)
    }

    var current: StateViews { views.value }

    func openLookups() { lookupsOpen.update { $0 = true } }

    func client() throws -> LineClient { try LineClient(path: path) }

    /// A fresh state with weather and a position that differs between the reader classes:
    /// precise 48.1234,11.5678; public 48.1,11.6.
    static let sample: StateViews = {
        var precise = WeatherState(status: .fresh, provider: "open-meteo", authorization: .authorizedAlways)
        precise.location = .init(
            latitude: 48.1234, longitude: 11.5678, mode: 3, source: .gpsd, receivedAt: wallNow - 3)
        precise.weather = Weather(temperature: 3.5, weatherCode: 3, units: .init(temperature: "°C", windSpeed: "km/h"))
        precise.fetchedAt = wallNow - 120
        var publicView = precise
        publicView.location?.latitude = 48.1
        publicView.location?.longitude = 11.6
        return StateViews(precise: precise, public: publicView)
    }()
}

extension StateViews {
    /// Both views changed by `body`.
    func changed(_ body: (inout WeatherState) -> Void) -> StateViews {
        var copy = self
        body(&copy.precise)
        body(&copy.public)
        return copy
    }
}

extension SocketServer.Timer {
    /// Time of `clock`, counted from its `now` at this call; a wake-up is a task sleeping on
    /// the clock (a test's manual clock proves the wake-up was scheduled, then advances).
    /// Tests only: the daemon's server uses its loop's timers (``loop(_:)``).
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.init(
            now: { origin.duration(to: clock.now) },
            wake: { deadline, work in
                Task {
                    try? await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil)
                    work()
                }
            })
    }
}
