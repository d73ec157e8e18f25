import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

@Suite(.timeLimit(.minutes(1))) struct LocationManagerTests {
    @Test func authorizationStartsWithItsCurrentValue() async {
        let status = ObservableValue(AuthorizationStatus.authorizedWhenInUse)
        var iterator = status.values().makeAsyncIterator()
        #expect(await iterator.next() == .authorizedWhenInUse)
        status.send(.denied)
        #expect(await iterator.next() == .denied)
    }

    @Test func oneSharedSourceOpenedByFirstReaderReleasedByLast() async throws {
        let source = ScriptedFixSource()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedAlways), maxHorizontalError: 50)
        defer { manager.close() }
        let a = Task { () -> FixSourceEvent? in
            for await event in manager.updates() { return event }
            return nil
        }
        var b: AsyncStream<FixSourceEvent>.Iterator? = manager.updates().makeAsyncIterator()
        try await source.waitForOpen()
        source.send(makeFix(10, 20))
        #expect(await a.value == .fix(makeFix(10, 20)))
        #expect(await b?.next() == .fix(makeFix(10, 20)))
        source.send(.deviceGone(path: "/dev/ttyUSB0"))
        #expect(await b?.next() == .condition(.deviceGone(path: "/dev/ttyUSB0")))
        #expect(source.openCount == 1)
        #expect(source.releaseCount == 0)  // b still reads
        b = nil  // the last reader goes
        try await source.waitForRelease()
        #expect(source.openCount == 1)
        #expect(!manager.isSourceOpen)
    }

    /// A scoped reader (the pipeline's) returns only once it is released and, when it was the
    /// last, the pump it stopped has ended: the source is released by then, not some time after.
    @Test func theLastScopedReaderReleasesTheSourceBeforeItReturns() async throws {
        let source = ScriptedFixSource()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedAlways), maxHorizontalError: 50)
        defer { manager.close() }
        let other = Task { await manager.reading { updates in for await _ in updates {} } }
        try await source.waitForOpen()
        let first = await manager.reading { updates -> FixSourceEvent? in
            source.send(makeFix(10, 20))
            for await event in updates { return event }
            return nil
        }
        #expect(first == .fix(makeFix(10, 20)))
        #expect(source.releaseCount == 0, "another reader still reads")
        other.cancel()
        await other.value
        #expect(source.releaseCount == 1, "released before the last reader returned")
        #expect(!manager.isSourceOpen)
        #expect(source.openCount == 1)
    }

    @Test func fixesWorseThanTheBoundAreDropped() async throws {
        let source = ScriptedFixSource()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedAlways), maxHorizontalError: 50)
        defer { manager.close() }
        var updates = manager.updates().makeAsyncIterator()
        try await source.waitForOpen()
        source.send(makeFix(1, 1, eph: 120))
        source.send(makeFix(2, 2, eph: 49))
        #expect(await updates.next() == .fix(makeFix(2, 2, eph: 49)))
    }

    /// The book's `getCurrentLocation()`: the first fix within the bound, then the source goes.
    @Test func currentLocationTakesTheFirstGoodFixAndReleasesTheSource() async throws {
        let source = ScriptedFixSource()
        let clock = ManualClock()
        let manager = LocationManager(
            source: source, authorization: ObservableValue(.authorizedWhenInUse), maxHorizontalError: 50)
        defer { manager.close() }
        let current = Task { try await manager.currentLocation(timeout: .seconds(30), clock: clock) }
        try await source.waitForOpen()
        source.send(makeFix(5, 5, eph: 500))  // too coarse
        source.send(makeFix(6, 6, eph: 10))
        source.send(makeFix(7, 7, eph: 10))
        #expect(try await current.value == makeFix(6, 6, eph: 10))
        try await source.waitForRelease()
        #expect(!manager.isSourceOpen)
    }

    /// Gated: nothing is opened before the status allows it (`filter(authorized)`).
    @Test func currentLocationWaitsForTheGate() async throws {
        let source = ScriptedFixSource()
        let clock = ManualClock()
        let status = ObservableValue(AuthorizationStatus.notDetermined)
        let manager = LocationManager(source: source, authorization: status, maxHorizontalError: 50)
        defer { manager.close() }
        let current = Task { try await manager.currentLocation(timeout: .seconds(30), clock: clock) }
        try await clock.waitForSleepers()  // waiting, with its timeout armed
        #expect(source.openCount == 0)
        status.send(.authorizedAlways)
        try await source.waitForOpen()
        source.send(makeFix(8, 8))
        #expect(try await current.value == makeFix(8, 8))
    }

    @Test func currentLocationTimesOutAndSaysWhy() async throws {
        let clock = ManualClock()
        let status = ObservableValue(AuthorizationStatus.authorizedAlways)
        let manager = LocationManager(source: ScriptedFixSource(), authorization: status, maxHorizontalError: 50)
        defer { manager.close() }
        let waiting = Task { try await manager.currentLocation(timeout: .seconds(30), clock: clock) }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(30))
        await #expect(throws: LocationManager.LocationError.timedOut(after: .seconds(30))) { try await waiting.value }

        status.send(.notDetermined)
        let gated = Task { try await manager.currentLocation(timeout: .seconds(5), clock: clock) }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        await #expect(throws: LocationManager.LocationError.notAuthorized(.notDetermined)) { try await gated.value }
    }
}
