import WundercastModel
import WundercastPipeline

extension StateStore {
    /// Suspends until the published state satisfies `predicate` (the current state counts),
    /// and returns it; `nil` when that has not happened within `timeout` of real time — a
    /// safety net that turns a hang into a failure, not the synchronisation itself.
    public func waitFor(
        timeout: Duration = .seconds(20), _ predicate: @escaping @Sendable (WeatherState) -> Bool
    ) async -> WeatherState? {
        let states = self.states()
        return await withTaskGroup(of: WeatherState?.self) { group in
            group.addTask {
                for await state in states where predicate(state) { return state }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
