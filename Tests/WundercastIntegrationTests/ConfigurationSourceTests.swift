import Synchronization
import Testing
import WundercastConfiguration
import WundercastModel
import WundercastPOSIX
import WundercastSupport
import WundercastTestSupport

@testable import WundercastServer

/// The reload engine (``ConfigurationSource/reload(to:parts:)``) with parts that record what
/// they are asked: every touched part prepares before any commits, in the list's order; a
/// rejected prepare commits nothing and changes nothing; `Fallback=` is resolved between.
@Suite(.timeLimit(.minutes(1))) struct ConfigurationSourceTests {
    /// What the parts were asked, in order.
    final class Steps: Sendable {
        private let steps = Mutex<[String]>([])
        func add(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.withLock { $0 } }
    }

    /// A part that every reload touches.
    struct Touched: ConfigurationPart {
        let name: String
        let steps: Steps
        var rejects = false
        var applied: [ConfigurationSource.Applied] = []

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool { true }

        func prepare(_ change: inout ConfigurationSource.Change) async throws(ConfigurationSource.Rejection) {
            steps.add("prepare \(name)")
            if rejects { throw ConfigurationSource.Rejection(reason: "\(name) cannot") }
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            let fallback =
                switch change.new.location.fallback {
                case .resolved(let place, _): "resolved \(place)"
                case .name(let place): "unresolved \(place)"
                default: "none"
                }
            steps.add("commit \(name), \(fallback)")
            return applied
        }
    }

    /// A part that no reload touches.
    struct Untouched: ConfigurationPart {
        let steps: Steps

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool { false }

        func prepare(_ change: inout ConfigurationSource.Change) async throws(ConfigurationSource.Rejection) {
            steps.add("prepare untouched")
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            steps.add("commit untouched")
            return []
        }
    }

    /// The defaults with one key changed (`MaxClients=64`).
    static let changed: Configuration = {
        var configuration = Configuration()
        configuration.socket.maxClients = 64
        return configuration
    }()

    /// A source in force with the defaults; its `Fallback=` names resolve to 59.91,10.75.
    static func source(loop: EventLoop, steps: Steps) -> ConfigurationSource {
        let configuration = Configuration()
        var offline = configuration
        offline.places.onlineGeocoding = false
        let places = Daemon.placeFinder(offline, loop: loop, logger: .discard)
        let weather = Daemon.WeatherSide(
            configuration, provider: ScriptedWeatherProvider(), places: places, logger: .discard)
        return ConfigurationSource(
            .init(
                configuration: configuration, loaded: configuration, weather: weather,
                viewer: StateViewer(publicPrecision: 1, places: places),
                journalViewer: StateViewer(publicPrecision: 1, places: places)),
            resolve: { configuration, _ in
                steps.add("resolve")
                var resolved = configuration
                if case .name(let name) = configuration.location.fallback {
                    resolved.location.fallback = .resolved(name: name, Coordinate(latitude: 59.91, longitude: 10.75))
                }
                return resolved
            })
    }

    @Test func everyTouchedPartPreparesBeforeAnyCommitsInTheListsOrder() async throws {
        let loop = try EventLoop(name: "test-source")
        defer { loop.stop() }
        let steps = Steps()
        let source = Self.source(loop: loop, steps: steps)
        var fresh = Self.changed
        fresh.location.fallback = .name("Oslo")
        let summary = try await source.reload(
            to: fresh,
            parts: [
                Touched(name: "a", steps: steps, applied: [.done("a did")]), Untouched(steps: steps),
                Touched(name: "b", steps: steps, applied: [.needsRestart("b later")]),
            ])
        #expect(
            steps.all == [
                "prepare a", "prepare b", "resolve", "commit a, resolved Oslo", "commit b, resolved Oslo",
            ])
        #expect(summary.applied == [.done("a did"), .needsRestart("b later")])
        #expect(summary.restartNeeded)
        #expect(summary.text.hasPrefix("changed ") && summary.text.hasSuffix("; a did; b later"), "\(summary.text)")
        // In force: the configuration with its fallback resolved, the files as read.
        #expect(source.current.configuration.socket.maxClients == 64)
        #expect(
            source.current.configuration.location.fallback
                == .resolved(name: "Oslo", .init(latitude: 59.91, longitude: 10.75)))
        #expect(source.current.loaded == fresh)

        // The same files again: the resolved place is carried over (not resolved again), nothing changed.
        let again = try await source.reload(to: fresh, parts: [Touched(name: "c", steps: steps)])
        #expect(steps.all.suffix(2) == ["prepare c", "commit c, resolved Oslo"])
        #expect(again.text == "nothing changed")
        #expect(!again.restartNeeded)
    }

    @Test func aRejectedPrepareCommitsNothingAndChangesNothing() async throws {
        let loop = try EventLoop(name: "test-source")
        defer { loop.stop() }
        let steps = Steps()
        let source = Self.source(loop: loop, steps: steps)
        do {
            _ = try await source.reload(
                to: Self.changed,
                parts: [
                    Touched(name: "a", steps: steps), Touched(name: "b", steps: steps, rejects: true),
                    Touched(name: "c", steps: steps),
                ])
            Issue.record("the reload was taken")
        } catch {
            #expect(error.reason == "b cannot")
        }
        #expect(steps.all == ["prepare a", "prepare b"])
        #expect(source.current.configuration == Configuration())
        #expect(source.current.loaded == Configuration())
    }
}
