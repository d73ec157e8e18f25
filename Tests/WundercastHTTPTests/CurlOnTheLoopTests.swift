import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastHTTP

/// Issue 15: every transfer of a ``CurlHTTPClient`` runs on its event loop (libcurl's multi-socket
/// interface), many at once, with no thread of its own; a cancelled one is gone at once and its
/// connection closed.
@Suite struct CurlOnTheLoopTests {
    static let userAgent = CurlHTTPClientTests.userAgent

    /// Every libcurl callback — socket, timer, header and body (the write callback, here with a
    /// gzip body and a redirect hop) — runs on the loop's thread.
    @Test func everyCallbackRunsOnTheLoopsThread() async throws {
        let server = try await PythonFixtureHTTPServer()
        defer { server.stop() }
        let loop = try EventLoop(name: "curl-probe")
        defer { loop.stop() }
        let seen = Observed<[CurlHTTPClient.Callback: [Bool]]>([:])
        let client = CurlHTTPClient(
            userAgent: Self.userAgent, loop: loop, connectTimeout: .seconds(5), timeout: .seconds(10),
            maxBodySize: 2 << 20,
            probe: { callback, onLoop in seen.update { $0[callback, default: []].append(onLoop) } })
        let response = try await client.get(
            server.baseURL + CurlHTTPClientTests.redirect(to: "/v1/forecast"), headers: [:])
        #expect(response.status == 200)
        #expect(response.body == (try Fixtures.bytes(CurlHTTPClientTests.metric)))
        let calls = seen.value
        #expect(Set(calls.keys) == [.socket, .timer, .header, .body])
        for (callback, onLoop) in calls {
            #expect(onLoop.allSatisfy { $0 }, "\(onLoop.filter { !$0 }.count) \(callback) callbacks off the loop")
        }
    }

    /// Twenty gets on one client are all in flight at once (the server holds every answer until
    /// the twentieth request has arrived) and each gets its own answer.
    @Test func twentyConcurrentGetsAreInFlightAtOnceAndComplete() async throws {
        let server = try await HoldingHTTPServer()
        defer { server.stop() }
        let client = CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared, timeout: .seconds(60))
        let url = server.baseURL
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for i in 0..<20 {
                group.addTask {
                    let response = try await client.get(url + "/hold/\(i)", headers: [:])
                    return (i, String(decoding: response.body, as: UTF8.self))
                }
            }
            try await server.arrived.wait(timeout: .seconds(30), "20 held requests") { $0.count >= 20 }
            #expect(await client.census().transfers == 20)
            await server.release()
            var bodies: [Int: String] = [:]
            for try await (i, body) in group { bodies[i] = body }
            #expect(bodies == Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, "ok /hold/\($0)") }))
        }
        #expect(await client.census().transfers == 0)
    }

    /// Cancelling one of five transfers in flight throws `cancelled` at once, takes its easy
    /// handle out (the server sees that connection closed, unanswered), and the other four go on.
    @Test func cancellingOneTransferClosesItsConnectionAndTheOthersGoOn() async throws {
        let server = try await HoldingHTTPServer()
        defer { server.stop() }
        let client = CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared, timeout: .seconds(60))
        let url = server.baseURL
        let tasks = (0..<5).map { i in
            Task { () async throws(WeatherError) -> String in
                String(decoding: try await client.get(url + "/hold/\(i)", headers: [:]).body, as: UTF8.self)
            }
        }
        try await server.arrived.wait(timeout: .seconds(30), "5 held requests") { $0.count >= 5 }
        tasks[2].cancel()
        let cancelled = await tasks[2].result
        #expect(throws: WeatherError.cancelled) { try cancelled.get() }
        let ended = try await server.ended.wait(timeout: .seconds(10), "the cancelled transfer's connection closed") {
            !$0.isEmpty
        }
        #expect(ended == [.init(path: "/hold/2", answered: false)])
        #expect(await client.census().transfers == 4)
        await server.release()
        for i in [0, 1, 3, 4] {
            #expect(try await tasks[i].result.get() == "ok /hold/\(i)")
        }
        #expect(server.ended.value == [.init(path: "/hold/2", answered: false)])
        #expect(await client.census().transfers == 0)
    }

    /// While twenty transfers run, the process has no thread more than before (but Swift's
    /// cooperative pool growing to its width for the twenty tasks): none for a transfer — no
    /// Dispatch worker blocked, which makes the pool grow past its width — and none made by the
    /// loop's thread (a thread inherits the name of the one that made it, so one
    /// libcurl made, a resolver's, would carry the loop's name; 127.0.0.1 needs no resolving).
    /// Counted in a child process that runs ``threadCensus()`` alone: other tests of this process
    /// start threads of their own meanwhile.
    @Test func noThreadAppearsWhileTransfersRun() async throws {
        let result = try await runTestsAlone("threadCensus", environment: ["WUNDERCAST_THREAD_CENSUS": "1"])
        #expect(result.stdout.contains("threadCensus() passed"), "\(result.stdout.suffix(3000))")
        #expect(result.status == 0)
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["WUNDERCAST_THREAD_CENSUS"] == "1",
            "run alone in a child process by noThreadAppearsWhileTransfersRun"))
    func threadCensus() async throws {
        let server = try await HoldingHTTPServer()
        defer { server.stop() }
        let loop = try EventLoop(name: "curl-census")
        defer { loop.stop() }
        let client = CurlHTTPClient(userAgent: Self.userAgent, loop: loop, timeout: .seconds(60))
        let url = server.baseURL
        _ = try await client.get(url + "/first", headers: [:])  // libcurl set up, one connection kept
        let before = Self.threads()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask { _ = try await client.get(url + "/hold/\(i)", headers: [:]) }
            }
            try await server.arrived.wait(timeout: .seconds(30), "20 held requests") { $0.count >= 21 }
            let during = Self.threads()
            let new = during.filter { before[$0.key] == nil }
            // Swift's cooperative pool is libdispatch's `com.apple.root.default-qos` (/proc shows
            // the last 15 bytes of the name): it may grow to its width, a thread a core, and past
            // it only when its threads block — as a transfer blocking a Dispatch worker would.
            let pool = "oot.default-qos"
            let (poolBefore, poolDuring) = (before.values.count { $0 == pool }, during.values.count { $0 == pool })
            #expect(
                poolDuring <= max(poolBefore, ProcessInfo.processInfo.activeProcessorCount),
                "\(poolDuring) threads of the pool while 20 transfers ran, \(poolBefore) before")
            let others = new.filter { $0.value != pool }
            #expect(others.isEmpty, "new threads while 20 transfers ran: \(others); before: \(before)")
            #expect(during.values.filter { $0 == "curl-census" }.count == 1, "\(during)")
            await server.release()
            try await group.waitForAll()
        }
    }

    /// A client let go frees its multi handle on the loop: the connection it kept for the next
    /// request is closed.
    @Test func aClientLetGoClosesItsKeptConnection() async throws {
        let server = try await HoldingHTTPServer()
        defer { server.stop() }
        var client: CurlHTTPClient? = CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared)
        let body = try await client?.get(server.baseURL + "/kept", headers: [:]).body
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == "ok /kept")
        #expect(await client?.census().sockets == 0)  // kept, not watched
        #expect(server.ended.value.isEmpty)
        client = nil
        let ended = try await server.ended.wait(timeout: .seconds(10), "the kept connection closed") { !$0.isEmpty }
        #expect(ended == [.init(path: "/kept", answered: true)])
    }

    /// The threads of this process: task id → name (`/proc/self/task/*/comm`).
    static func threads() -> [Int: String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var names: [Int: String] = [:]
        for task in tasks {
            guard let id = Int(task),
                let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            else { continue }
            names[id] = comm.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return names
    }
}
