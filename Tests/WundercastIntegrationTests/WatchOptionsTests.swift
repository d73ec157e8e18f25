import Foundation
import Testing
import WundercastServer
import WundercastTestSupport

/// `watch weather` and `watch every SPAN`, with time from the test's manual clock. A request
/// sent after a broadcast is a barrier: the server handles both in order on its queue, so a
/// state line that was going to be sent arrives before the request's answer.
@Suite struct WatchOptionsTests {
    @Test func watchWeatherSendsOnlyWeatherAndStatusChanges() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("watch weather\n")
        #expect(try jsonObject(await client.readLine())["status"] as? String == "fresh")
        // A new position and a newer fix: not weather.
        test.set(
            test.current.changed {
                $0.location?.latitude += 1
                $0.location?.receivedAt = TestServer.wallNow
            })
        client.send("version\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "VERSION")
        // A status change is sent.
        test.set(test.current.changed { $0.status = .stale })
        #expect(try jsonObject(await client.readLine())["status"] as? String == "stale")
        // A weather change is sent, with the position as it is now.
        test.set(test.current.changed { $0.weather?.temperature = -1 })
        let changed = try jsonObject(await client.readLine())
        #expect(changed[path: "weather.temperature"] as? Double == -1)
        #expect(changed[path: "location.latitude"] as? Double == 49.1234)
    }

    @Test func plainWatchSendsEveryChange() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("watch\n")
        _ = await client.readLine()
        test.set(test.current.changed { $0.location?.latitude = 50 })
        #expect(try jsonObject(await client.readLine())[path: "location.latitude"] as? Double == 50)
    }

    /// At most one line per span: changes inside it are held, and at its end only the newest
    /// goes; a span without changes sends nothing.
    @Test func watchEverySendsTheNewestStateOncePerSpan() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("watch every 60s\n")
        #expect(try jsonObject(await client.readLine())[path: "weather.temperature"] as? Double == 3.5)
        for t in [10.0, 11.0, 12.0] { test.set(test.current.changed { $0.weather?.temperature = t }) }
        client.send("version\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "VERSION", "held until 60 s")
        try await test.clock.waitForSleeper(until: test.clock.at(.seconds(60)))
        test.clock.advance(by: .seconds(60))
        #expect(try jsonObject(await client.readLine())[path: "weather.temperature"] as? Double == 12)
        // The next span starts with that line: a change at 60 s waits for 120 s.
        test.set(test.current.changed { $0.weather?.temperature = 13 })
        client.send("version\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "VERSION")
        try await test.clock.waitForSleeper(until: test.clock.at(.seconds(120)))
        test.clock.advance(by: .seconds(60))
        #expect(try jsonObject(await client.readLine())[path: "weather.temperature"] as? Double == 13)
        // After a quiet span, a change goes at once.
        test.clock.advance(by: .seconds(60))
        test.set(test.current.changed { $0.weather?.temperature = 14 })
        #expect(try jsonObject(await client.readLine())[path: "weather.temperature"] as? Double == 14)
    }

    /// `watch weather every SPAN`: both filters.
    @Test func watchWeatherEveryCombinesBoth() async throws {
        let test = try TestServer()
        let client = try test.client()
        defer { client.close() }
        client.send("watch weather every 30s\n")
        _ = await client.readLine()
        test.set(test.current.changed { $0.location?.latitude = 10 })
        client.send("version\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "VERSION")
        test.clock.advance(by: .seconds(30))
        test.set(test.current.changed { $0.weather?.temperature = 20 })
        let line = try jsonObject(await client.readLine())
        #expect(line[path: "weather.temperature"] as? Double == 20)
    }
}
