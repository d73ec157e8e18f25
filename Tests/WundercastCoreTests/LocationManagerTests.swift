import Testing
import WundercastCore
import WundercastTestSupport

/// Waits (bounded) until `condition` holds, re-checking whenever other tasks ran.
/// For state owned by detached tasks that offer no event to wait on.
func eventually(_ what: String, within attempts: Int = 20_000, _ condition: () -> Bool) async {
    for _ in 0..<attempts {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("timed out waiting for: \(what)")
}

@Suite struct LocationManagerTests {
    @Test func authorizationStartsWithItsCurrentValue() async {
        let status = ObservableValue(AuthorizationStatus.authorizedWhenInUse)
        var iterator = status.values().makeAsyncIterator()
        #expect(await iterator.next() == .authorizedWhenInUse)
        status.send(.denied)
        #expect(await iterator.next() == .denied)
    }

    @Test func noGPSUntilAuthorizedThenFixesFlow() async {
        let source = ScriptedFixSource()
        let status = ObservableValue(AuthorizationStatus.notDetermined)
        let manager = LocationManager(source: source, authorization: status, maxHorizontalError: 50)
        defer { manager.close() }
        var fixes = manager.locations().makeAsyncIterator()
        await eventually("the status was seen") { true }
        #expect(source.openCount == 0)
        status.send(.authorizedAlways)
        await source.waitForOpen()
        await eventually("pump running") { manager.isSourceOpen }
        source.send(makeFix(1, 2))
        #expect(await fixes.next() == makeFix(1, 2))
        status.send(.denied)
        await eventually("released on denied") { source.releaseCount == 1 }
        #expect(!manager.isSourceOpen)
    }

    @Test func oneSharedSourceOpenedByFirstReaderReleasedByLast() async {
        let source = ScriptedFixSource()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedAlways), maxHorizontalError: 50)
        defer { manager.close() }
        let a = Task { () -> Fix? in
            for await fix in manager.locations() { return fix }
            return nil
        }
        var b = manager.locations().makeAsyncIterator()
        await source.waitForOpen()
        await eventually("both readers") { manager.isSourceOpen }
        source.send(makeFix(10, 20))
        #expect(await a.value == makeFix(10, 20))
        #expect(await b.next() == makeFix(10, 20))
        #expect(source.openCount == 1)
        #expect(source.releaseCount == 0)  // b still reads
        _ = b  // keep b alive up to here
        b = AsyncStream<Fix>.makeStream().stream.makeAsyncIterator()  // drop the last reader
        await eventually("released by the last reader") { source.releaseCount == 1 }
        #expect(source.openCount == 1)
    }

    @Test func fixesWorseThanTheBoundAreDropped() async {
        let source = ScriptedFixSource()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedAlways), maxHorizontalError: 50)
        defer { manager.close() }
        var fixes = manager.locations().makeAsyncIterator()
        await source.waitForOpen()
        await eventually("open") { manager.isSourceOpen }
        source.send(makeFix(1, 1, eph: 120))
        source.send(makeFix(2, 2, eph: 49))
        #expect(await fixes.next() == makeFix(2, 2, eph: 49))
    }

    @Test func currentLocationTakesTheFirstGoodFixAndReleasesTheSource() async throws {
        let source = ScriptedFixSource()
        let clock = ManualClock()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedWhenInUse), maxHorizontalError: 50)
        defer { manager.close() }
        let current = Task { try await manager.currentLocation(timeout: .seconds(30), clock: clock) }
        await source.waitForOpen()
        await eventually("open") { manager.isSourceOpen }
        source.send(makeFix(5, 5, eph: 500))  // too coarse
        source.send(makeFix(6, 6, eph: 10))
        source.send(makeFix(7, 7, eph: 10))
        #expect(try await current.value == makeFix(6, 6, eph: 10))
        await eventually("released after take(1)") { source.releaseCount == 1 }
    }

    @Test func currentLocationTimesOutAndSaysWhy() async {
        let clock = ManualClock()
        let status = ObservableValue(AuthorizationStatus.authorizedAlways)
        let manager = LocationManager(source: ScriptedFixSource(), authorization: status, maxHorizontalError: 50)
        defer { manager.close() }
        let waiting = Task { try await manager.currentLocation(timeout: .seconds(30), clock: clock) }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(30))
        await #expect(throws: LocationManager.LocationError.timedOut(after: .seconds(30))) { try await waiting.value }

        status.send(.notDetermined)
        let gated = Task { try await manager.currentLocation(timeout: .seconds(5), clock: clock) }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        await #expect(throws: LocationManager.LocationError.notAuthorized(.notDetermined)) { try await gated.value }
    }
}
