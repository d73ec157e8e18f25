import Foundation
import Testing
import WundercastModel
import WundercastPOSIX
import WundercastServer
import WundercastTestSupport

/// A state that changes again before the loop got to its broadcast is sent only as the newer
/// one: at most one broadcast waits for a busy loop (a gpsd flooding TPVs must not queue one
/// job per change in front of every client's answer).
@Suite struct BroadcastCoalescingTests {
    @Test func changesWhileTheLoopIsBusyReachAWatcherAsTheNewestOnly() async throws {
        let loop = try EventLoop(name: "coalescing-test")
        defer { loop.stop() }
        let test = try TestServer(loop: loop)
        let client = try test.client()
        defer { client.close() }
        client.send("watch\n")
        _ = await client.readLine()  // the current state
        _ = try await test.watchers.wait(timeout: .seconds(10), "the watcher to count") { $0 == [1] }
        func temperature(_ line: String?) throws -> Double? {
            let weather = try jsonObject(line)["weather"] as? [String: Any]
            return weather?["temperature"] as? Double
        }
        // The loop is busy (held in a job of its own) while the state changes three times.
        let release = DispatchSemaphore(value: 0)
        loop.post { release.wait() }
        for value in [11.0, 12.0, 13.0] {
            test.set(TestServer.sample.changed { $0.weather?.temperature = value })
        }
        release.signal()
        #expect(try temperature(await client.readLine()) == 13, "the newest, not the first of the three")
        test.set(TestServer.sample.changed { $0.weather?.temperature = 14 })
        #expect(try temperature(await client.readLine()) == 14, "nothing of 11 or 12 was queued behind it")
    }
}
