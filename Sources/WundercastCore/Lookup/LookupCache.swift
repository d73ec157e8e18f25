#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Weather of one-off lookups per rounded position, each kept for `maxAge` (the daemon's
/// `MaxAge=`), at most `capacity` entries (the oldest go first).
struct LookupCache {
    let maxAge: Double
    let capacity: Int
    private var entries: [Coordinate: (weather: Weather, fetchedAt: Date)] = [:]

    init(maxAge: Duration, capacity: Int = 1024) {
        self.maxAge = Double(maxAge.components.seconds) + Double(maxAge.components.attoseconds) / 1e18
        self.capacity = capacity
    }

    /// The weather at `position` if fetched less than `maxAge` before `now`.
    func weather(at position: Coordinate, now: Date) -> (weather: Weather, fetchedAt: Date)? {
        guard let entry = entries[position], now.timeIntervalSince(entry.fetchedAt) < maxAge else { return nil }
        return entry
    }

    mutating func store(_ weather: Weather, at position: Coordinate, fetchedAt: Date) {
        if entries.count >= capacity {
            entries = entries.filter { fetchedAt.timeIntervalSince($0.value.fetchedAt) < maxAge }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.fetchedAt < $1.value.fetchedAt }) {
                entries.removeValue(forKey: oldest.key)
            }
        }
        entries[position] = (weather, fetchedAt)
    }
}

/// Provider requests per client user in the last minute, for `[Socket] LookupsPerMinute=`.
struct UserRequestLimit {
    let perMinute: Int
    private var recent: [UInt32: [Date]] = [:]

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Counts one request for `user` at `now` if the user has room; `false` when not.
    mutating func take(for user: UInt32, now: Date) -> Bool {
        var times = recent[user, default: []].filter { now.timeIntervalSince($0) < 60 }
        guard times.count < perMinute else {
            recent[user] = times
            return false
        }
        times.append(now)
        recent[user] = times
        if recent.count > 4096 { recent = recent.filter { !$0.value.isEmpty } }
        return true
    }
}
