import Foundation
import Testing
import WundercastProtocol
import WundercastServer
import WundercastTestSupport

/// Readers that cannot hurt the daemon: the client limit, the time-outs, hostile input, and
/// many watchers at once. Time-outs run on the test's manual clock.
@Suite struct SocketLimitsTests {
    @Test func beyondMaxClientsAConnectionGetsTooManyClientsAndIsClosed() async throws {
        let test = try TestServer(settings: .init(maxClients: 2))
        let first = try test.client()
        let second = try test.client()
        defer { second.close() }
        for client in [first, second] {
            client.send("watch\n")
            _ = await client.readLine()
        }
        let third = try test.client()
        defer { third.close() }
        third.receiveTimeout(seconds: 15)  // the refusal comes at once; a server that serves it sends nothing
        let refusal = try jsonObject(await third.readLine())
        #expect(refusal["code"] as? String == "too-many-clients")
        #expect((refusal["message"] as? String)?.contains("at most 2 clients") == true)
        #expect(await third.readLine() == nil, "closed after the refusal")
        // Once one leaves, a new client is served.
        first.close()
        try await test.watchers.wait(timeout: .seconds(10), "a watcher to leave") { $0.last == 1 }
        let fourth = try test.client()
        defer { fourth.close() }
        fourth.send("version\n")
        #expect(try jsonObject(await fourth.readLine())["class"] as? String == "VERSION")
    }

    /// A request line over `SocketProtocol.maxRequestLength` that ends with its newline (one
    /// chunk, the whole line read at once) gets `too-long` and the end, as one cut off unended.
    @Test func anOverlongLineEndedByANewlineGetsTooLongAndIsClosed() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send(String(repeating: "a", count: 2 * SocketProtocol.maxRequestLength) + "\n")
        let refusal = try jsonObject(await client.readLine())
        try #require(refusal["code"] as? String == "too-long", "\(refusal)")
        #expect(await client.readLine() == nil, "closed after the refusal")
    }

    /// A client that sends requests and reads none of the answers is disconnected once more than
    /// `maxPendingBytes` of them wait (the kernel's socket buffer full before): its later
    /// requests are not answered, and nothing of it stays in the server.
    @Test func aClientThatReadsNoAnswersIsDroppedBeyondMaxPendingBytes() async throws {
        let test = try TestServer(settings: .init(maxPendingBytes: 4096))
        let client = try test.client()
        defer { client.close() }
        // 4000 answers of a few hundred bytes each: far more than the socket buffer holds.
        client.send(String(repeating: "now\n", count: 4000) + "version\n")
        // Only now read: what the kernel held, then the end (never the VERSION answer).
        let lines = try await onDedicatedThread("the reader of a client that read late") { () -> [String] in
            var lines: [String] = []
            while let line = client.readLineBlocking() {
                lines.append(line)
                if line.contains(#""VERSION""#) { break }
            }
            return lines
        }
        #expect(lines.last?.contains(#""VERSION""#) != true, "every request was answered")
        #expect(lines.count < 4000, "\(lines.count) answers")
        #expect(await test.server.clientCount == 0)
    }

    /// No request within `IdleTimeout=`: an `idle-timeout` line, then the end. A client that
    /// asked something stays, however long it then waits.
    @Test func aConnectionWithoutARequestIsClosedAfterIdleTimeout() async throws {
        let test = try TestServer(settings: .init(idleTimeout: .seconds(10)))
        let silent = try test.client()
        defer { silent.close() }
        let talking = try test.client()
        defer { talking.close() }
        talking.send("version\n")
        _ = await talking.readLine()
        try await test.clock.waitForSleeper(until: test.clock.at(.seconds(10)))
        test.clock.advance(by: .seconds(10))
        let error = try jsonObject(await silent.readLine())
        #expect(error["code"] as? String == "idle-timeout")
        #expect(await silent.readLine() == nil)
        test.clock.advance(by: .seconds(3600))
        talking.send("version\n")
        #expect(try jsonObject(await talking.readLine())["class"] as? String == "VERSION")
    }

    /// A watcher that takes nothing of a line it was sent for `SendTimeout=` is disconnected;
    /// a healthy watcher gets the same large state.
    @Test func aWatcherThatTakesNothingForSendTimeoutIsDisconnected() async throws {
        let test = try TestServer(
            settings: .init(idleTimeout: .seconds(3600), sendTimeout: .seconds(60), maxPendingBytes: 64 << 20))
        let stuck = try test.client()
        defer { stuck.close() }
        stuck.send("watch\n")
        _ = await stuck.readLine()
        // 4 MB: more than the socket buffers take, so the server's send would block.
        let large = String(repeating: "x", count: 4 << 20)
        test.set(test.current.changed { $0.provider = large })
        try await test.clock.waitForSleeper(until: test.clock.at(.seconds(60)))
        test.clock.advance(by: .seconds(60))
        try await test.watchers.wait(timeout: .seconds(10), "the stuck watcher to be dropped") { $0.last == 0 }
        // What it gets when it finally reads: part of the line, then the end.
        var received = 0
        while let line = stuck.readLineBlocking() { received += line.utf8.count }
        #expect(received < large.utf8.count)
    }

    /// A megabyte without a newline, invalid UTF-8, and a watcher killed in the middle of a
    /// large line: each gets an error or is dropped, and another client is served throughout.
    @Test func hostileClientsLeaveOthersServed() async throws {
        let test = try TestServer()
        let healthy = try test.client()
        defer { healthy.close() }
        healthy.send("watch\n")
        _ = await healthy.readLine()

        let flooding = try test.client()
        defer { flooding.close() }
        flooding.send(String(repeating: "a", count: 1 << 20))
        let tooLong = try jsonObject(await flooding.readLine())
        #expect(tooLong["code"] as? String == "too-long")
        #expect(await flooding.readLine() == nil)

        let garbled = try test.client()
        defer { garbled.close() }
        garbled.send("now\u{7F}\n")
        let bytes: [UInt8] = [0xFF, 0xFE, 0x6E, 0x0A]
        _ = bytes.withUnsafeBytes { send(garbled.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(try jsonObject(await garbled.readLine())["code"] as? String == "unknown-request")
        #expect(try jsonObject(await garbled.readLine())["code"] as? String == "not-utf8")
        garbled.send("version\n")
        #expect(try jsonObject(await garbled.readLine())["class"] as? String == "VERSION", "still usable")

        let killed = try ChildProcess(
            ["/usr/bin/socat", "-", "UNIX-CONNECT:\(test.path)"], stdinPipe: true, separateStderr: true)
        killed.writeToStdin(Array("watch\n".utf8))
        try await killed.output.waitFor("the killed watcher's first line") { _ in true }
        try await test.watchers.wait(timeout: .seconds(10), "two watchers") { $0.last == 2 }
        test.set(test.current.changed { $0.provider = String(repeating: "y", count: 512 << 10) })
        killed.signalGroup(SIGKILL)
        try await test.watchers.wait(timeout: .seconds(20), "the killed watcher to be dropped") { $0.last == 1 }

        var line = await healthy.readLine()
        #expect(line?.count ?? 0 > 512 << 10, "the healthy watcher got the large state")
        healthy.send("now\n")
        line = await healthy.readLine()
        #expect(try jsonObject(line)["class"] as? String == "WEATHER")
    }

    /// 500 watchers connected at once all receive one change.
    @Test func fiveHundredWatchersAllReceiveOneChange() async throws {
        let test = try TestServer(settings: .init(maxClients: 1000))
        let clients = try (0..<500).map { _ in try test.client() }
        defer { for client in clients { client.close() } }
        for client in clients { client.send("watch\n") }
        let received = try await onDedicatedThread("500 watchers") { () -> Int in
            for client in clients { _ = client.readLineBlocking() }
            test.set(test.current.changed { $0.weather?.temperature = 21.5 })
            var changed = 0
            for client in clients {
                if let line = client.readLineBlocking(), line.contains(#""temperature":21.5"#) { changed += 1 }
            }
            return changed
        }
        #expect(received == 500)
        #expect(test.watchers.value.last == 500)
    }
}
