import Foundation
import Testing
import WundercastProtocol
import WundercastServer
import WundercastTestSupport

/// Every request through a real socket to the server, and what the server asks the daemon.
@Suite struct SocketRoutingTests {
    /// Each request of `help`, and the class of its answer.
    @Test(arguments: [
        ("now", "WEATHER"), ("watch", "WEATHER"), ("watch weather", "WEATHER"), ("watch every 60s", "WEATHER"),
        ("version", "VERSION"), ("help", "HELP"), ("status", "STATUS"), ("refresh", "WEATHER"),
        ("authorize", "AUTHORIZATION"), ("authorize when-in-use", "AUTHORIZATION"), ("weather Oslo", "ERROR"),
        ("weather 59.9,10.7", "ERROR"), ("around", "ERROR"), ("around 1,2 0.5", "ERROR"), ("nonsense", "ERROR"),
    ])
    func everyRequestIsAnswered(request: String, answer: String) async throws {
        let test = try TestServer()
        test.openLookups()
        let client = try test.client()
        defer { client.close() }
        client.send(request + "\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == answer)
    }

    @Test func nowIsTheStateWithItsAgesStampedForThisReader() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("now\r\n")
        let line = try #require(await client.readLine())
        // Exactly what encoding the stamped state gives (root reads precisely).
        let expected = SocketProtocol.line(test.current.precise.stamped(now: TestServer.wallNow))
        #expect(Array(line.utf8) + [10] == expected)
        let object = try jsonObject(line)
        #expect(object["ageSeconds"] as? Int == 120)
        #expect(object[path: "location.ageSeconds"] as? Int == 3)
        #expect(object[path: "location.latitude"] as? Double == 48.1234)
    }

    @Test func statusCountsClientsAndWatchers() async throws {
        let test = try TestServer()
        let watcher = try test.client()
        defer { watcher.close() }
        watcher.send("watch\n")
        _ = await watcher.readLine()
        let client = try test.client()
        defer { client.close() }
        client.send("status\n")
        let status = try jsonObject(await client.readLine())
        #expect(status[path: "counters.clients"] as? Int == 2)
        #expect(status[path: "counters.watchers"] as? Int == 1)
        #expect(status[path: "counters.requests"] as? Int == 7, "the daemon's own counters stay")
        #expect(status["provider"] as? String == "open-meteo")
    }

    @Test func refreshAndAuthorizeReachTheDaemonForAPreciseReader() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("refresh\nauthorize denied\nauthorize\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "WEATHER")
        #expect(try jsonObject(await client.readLine())["config"] as? String == "denied")
        #expect(try jsonObject(await client.readLine())["config"] as? String == "denied")
        #expect(test.refreshes.value == 1)
        #expect(test.authorizations.value == [.denied, nil])
    }

    /// A decision is taken off the loop (its file is saved with `fsync`s) and the requests
    /// after it on the same connection wait for it: answers keep the order of the requests.
    /// Meanwhile the loop serves other clients.
    @Test func aDecisionIsAnsweredOffTheLoopBeforeTheRequestsAfterIt() async throws {
        let test = try TestServer()
        test.decisionsOpen.update { $0 = false }
        let client = try test.client()
        defer { client.close() }
        client.send("authorize denied\nversion\nnow\n")
        _ = try await test.authorizations.wait(timeout: .seconds(10), "the decision to reach the daemon") {
            $0 == [.denied]
        }
        let other = try test.client()
        defer { other.close() }
        other.send("version\n")
        #expect(try jsonObject(await other.readLine())["class"] as? String == "VERSION", "the loop serves others")
        test.decisionsOpen.update { $0 = true }
        #expect(try jsonObject(await client.readLine())["config"] as? String == "denied")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "VERSION")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "WEATHER")
    }

    /// Lookups run off the queue: while four wait on the network, the connection is served
    /// (`now`), a fifth is refused `rate-limited`, and the four answers come when they finish.
    @Test func lookupsRunOffTheQueueAndAreCappedPerConnection() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("weather A\nweather B\nweather C\nweather D\nweather E\nnow\n")
        let refused = try jsonObject(await client.readLine())
        #expect(refused["code"] as? String == "rate-limited")
        #expect((refused["message"] as? String)?.contains("at most 4 lookups") == true)
        #expect(try jsonObject(await client.readLine())["class"] as? String == "WEATHER")
        try await test.lookups.wait(timeout: .seconds(10), "four lookups") { $0.count == 4 }
        #expect(test.lookups.value == [.precise, .precise, .precise, .precise])
        test.openLookups()
        var answered: Set<String> = []
        for _ in 0..<4 {
            answered.insert(try jsonObject(await client.readLine())["message"] as? String ?? "")
        }
        #expect(answered == ["lookup A", "lookup B", "lookup C", "lookup D"])
    }

    /// `echo "weather Oslo" | socat …`: the half-closed connection stays until its lookup answers.
    @Test func aHalfClosedConnectionGetsItsLookupAnswer() async throws {
        let test = try TestServer()
        let socat = try ChildProcess(
            // socat waits only 0.5 s for answers after its input ends unless told (-t): the
            // server's close after the answer is what ends it here, -t only a safety net. The
            // lookup is a task of this test process, which a loaded run keeps waiting for seconds.
            ["/usr/bin/socat", "-t", "90", "-", "UNIX-CONNECT:\(test.path)"], stdinPipe: true, separateStderr: true)
        socat.writeToStdin(Array("weather Oslo\n".utf8))
        socat.closeStdin()
        try await test.lookups.wait(timeout: .seconds(30), "the lookup") { $0.count == 1 }
        test.openLookups()
        try await socat.exited(timeout: .seconds(60))
        // The exit and the end of its output are two events (another thread reads the output).
        try await socat.output.waitForEnd("the end of socat's output")
        #expect(try jsonObject(socat.output.lines.first)["message"] as? String == "lookup Oslo")
    }

    /// A lookup whose client left is not answered, and nothing else breaks.
    @Test func aLookupForAClientThatLeftIsDropped() async throws {
        let test = try TestServer()
        let leaving = try test.client()
        leaving.send("weather Oslo\n")
        try await test.lookups.wait(timeout: .seconds(10), "the lookup") { $0.count == 1 }
        leaving.close()
        test.openLookups()
        let other = try test.client()
        defer { other.close() }
        other.send("weather Bergen\n")
        #expect(try jsonObject(await other.readLine())["message"] as? String == "lookup Bergen")
    }
}
