#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
