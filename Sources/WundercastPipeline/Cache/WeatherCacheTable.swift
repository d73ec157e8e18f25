#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// The bookkeeping of ``WeatherCache`` as a plain value (no tasks, no lock, no clock: the
/// caller passes the time): the stored answers, the fetches in flight and who waits for which.
///
/// - An answer is stored under its ``Key`` with the instant its request was *started*
///   (``Entry/requestedAt``, monotonic) and is served to a caller while younger than the
///   `maxAge` that caller passes (its rule's: `MaxAge`, owned by ``ThrottlePolicy``): a refresh
///   `MaxAge` after a fetch started finds it expired, so the stationary refresh still happens.
///   The table has no age of its own.
/// - At most ``capacity`` answers: storing one more drops those older than the storing
///   request's `maxAge`, then the least recently used.
/// - A key being fetched is joined: a new waiter gets a slot on that fetch, not a new fetch.
/// - A waiter that leaves (cancellation) is answered ``WeatherError/cancelled`` at once, unless
///   it was the last one of its fetch: then the fetch is abandoned (the caller cancels its task),
///   no one joins it any more, and that waiter is answered when the fetch has ended.
struct WeatherCacheTable {
    typealias Answer = Result<CachedWeather, WeatherError>
    typealias Waiter = CheckedContinuation<Answer, Never>

    /// Provider name + position rounded to the configured precision.
    struct Key: Hashable, Sendable {
        var provider: String
        var position: Coordinate
    }

    struct Entry {
        var weather: Weather
        var fetchedAt: Date
        var requestedAt: Duration
        /// When the answer arrived (monotonic, like ``requestedAt``).
        var arrivedAt: Duration
        var lastUsed: UInt64
    }

    /// How one requested position is served.
    enum Ticket<Refusal: Sendable>: Sendable {
        case answer(Answer)
        case refused(Refusal)
        /// Wait on this slot (``attach(_:_:)``); `joined`: of a fetch that was in flight already.
        case wait(UInt64, joined: Bool)
    }

    private struct Slot {
        var fetch: Int
        var key: Key
        var waiter: Waiter?
        var answer: Answer?
    }

    private struct Fetch {
        var keys: [Key]
        var requestedAt: Duration
        /// The `maxAge` of the caller that started it: what is expired when it makes room.
        var maxAge: Duration
        var slots: Set<UInt64> = []
    }

    let capacity: Int
    private(set) var entries: [Key: Entry] = [:]
    private var flights: [Key: Int] = [:]
    private var fetches: [Int: Fetch] = [:]
    private var slots: [UInt64: Slot] = [:]
    private var nextFetch = 0
    private var nextSlot: UInt64 = 0
    private var uses: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Fetches not yet ended, and waiters not yet answered (both bounded by the callers).
    var pending: (fetches: Int, waiters: Int) { (fetches.count, slots.count) }

    /// Plans `keys` at `now`: a stored answer younger than `maxAge` (unless `reload`), else a
    /// slot on the fetch in flight for the key, else — when `admit` lets it (called once per key
    /// that needs a request) — a slot on a new fetch. New fetches are returned to be started,
    /// up to `batchLimit` keys each; a key asked twice is fetched once.
    mutating func plan<Refusal: Sendable>(
        _ keys: [Key], reload: Bool, maxAge: Duration, now: Duration, batchLimit: Int, admit: () -> Refusal?
    ) -> (tickets: [Ticket<Refusal>], starts: [(fetch: Int, keys: [Key])]) {
        var tickets = [Ticket<Refusal>?](repeating: nil, count: keys.count)
        var missing: [Key] = []
        var askedBy: [Key: [Int]] = [:]
        var refused: [Key: Refusal] = [:]
        for (index, key) in keys.enumerated() {
            if !reload, let hit = cached(key, maxAge: maxAge, now: now) {
                tickets[index] = .answer(.success(hit))
            } else if let fetch = flights[key] {
                tickets[index] = .wait(addSlot(fetch, key), joined: true)
            } else if askedBy[key] != nil {
                askedBy[key]?.append(index)
            } else if let refusal = refused[key] ?? admit() {
                refused[key] = refusal
                tickets[index] = .refused(refusal)
            } else {
                missing.append(key)
                askedBy[key] = [index]
            }
        }
        var starts: [(fetch: Int, keys: [Key])] = []
        for first in stride(from: 0, to: missing.count, by: max(1, batchLimit)) {
            let chunk = Array(missing[first..<min(missing.count, first + max(1, batchLimit))])
            let fetch = nextFetch
            nextFetch += 1
            fetches[fetch] = Fetch(keys: chunk, requestedAt: now, maxAge: maxAge)
            for key in chunk {
                flights[key] = fetch
                for index in askedBy[key] ?? [] { tickets[index] = .wait(addSlot(fetch, key), joined: false) }
            }
            starts.append((fetch, chunk))
        }
        return (tickets.map { $0 ?? .answer(.failure(.cancelled)) }, starts)
    }

    /// The stored answer for `key` if its request started less than `maxAge` before `now`
    /// (marks it used); drops it when it is older.
    mutating func cached(_ key: Key, maxAge: Duration, now: Duration) -> CachedWeather? {
        guard var entry = entries[key] else { return nil }
        guard isFresh(entry, maxAge: maxAge, now: now) else {
            entries[key] = nil
            return nil
        }
        uses += 1
        entry.lastUsed = uses
        entries[key] = entry
        return CachedWeather(
            weather: entry.weather, fetchedAt: entry.fetchedAt, fromCache: true, age: now - entry.requestedAt,
            sinceArrival: now - entry.arrivedAt)
    }

    /// A waiter arrived for `slot`: its answer when there is one already (a slot unknown here was
    /// left: ``WeatherError/cancelled``), else `nil` and the waiter is kept for ``finish(_:_:fetchedAt:now:)``.
    mutating func attach(_ slot: UInt64, _ waiter: Waiter) -> Answer? {
        guard var held = slots[slot] else { return .failure(.cancelled) }
        if let answer = held.answer {
            slots[slot] = nil
            return answer
        }
        held.waiter = waiter
        slots[slot] = held
        return nil
    }

    /// The waiter of `slot` leaves (its task was cancelled). Returns the waiter to answer
    /// ``WeatherError/cancelled`` now (if it is attached and not the last of its fetch), and the
    /// fetch to cancel when it was the last one.
    mutating func leave(_ slot: UInt64) -> (cancelled: Waiter?, abandon: Int?) {
        guard let held = slots[slot], held.answer == nil, var fetch = fetches[held.fetch] else { return (nil, nil) }
        if fetch.slots.count > 1 {
            fetch.slots.remove(slot)
            fetches[held.fetch] = fetch
            slots[slot] = nil
            return (held.waiter, nil)
        }
        // The last waiter: nobody joins the fetch any more; the waiter is answered when it ends.
        for key in fetch.keys where flights[key] == held.fetch { flights[key] = nil }
        return (nil, held.fetch)
    }

    /// Fetch `fetch` ended with `results` (one per key; a key without one counts as cancelled) at
    /// wall-clock `fetchedAt`: successes are stored, waiters get their key's answer. Returns the
    /// waiters to resume, with their answers.
    mutating func finish(
        _ fetch: Int, _ results: [Key: Result<Weather, WeatherError>], fetchedAt: Date, now: Duration
    ) -> [(Waiter, Answer)] {
        guard let ended = fetches.removeValue(forKey: fetch) else { return [] }
        for key in ended.keys where flights[key] == fetch { flights[key] = nil }
        for (key, result) in results {
            guard case .success(let weather) = result else { continue }
            store(
                Entry(
                    weather: weather, fetchedAt: fetchedAt, requestedAt: ended.requestedAt, arrivedAt: now, lastUsed: 0),
                at: key, maxAge: ended.maxAge, now: now)
        }
        var resume: [(Waiter, Answer)] = []
        for id in ended.slots {
            guard var held = slots[id] else { continue }
            let answer: Answer = (results[held.key] ?? .failure(.cancelled)).map {
                CachedWeather(weather: $0, fetchedAt: fetchedAt, fromCache: false, age: now - ended.requestedAt)
            }
            if let waiter = held.waiter {
                slots[id] = nil
                resume.append((waiter, answer))
            } else {
                held.answer = answer
                slots[id] = held
            }
        }
        return resume
    }

    /// Whether `entry` may be served under `maxAge` at `now`: its request started less than
    /// `maxAge` ago (and not in the future). (`ttl` is the caller's `maxAge`, not the table's.)
    private func isFresh(_ entry: Entry, maxAge ttl: Duration, now: Duration) -> Bool {
        let age = now - entry.requestedAt
        return age >= .zero && age < ttl
    }

    private mutating func addSlot(_ fetch: Int, _ key: Key) -> UInt64 {
        let id = nextSlot
        nextSlot += 1
        slots[id] = Slot(fetch: fetch, key: key)
        fetches[fetch]?.slots.insert(id)
        return id
    }

    /// Stores `entry` unless a newer answer for `key` is there; makes room first (entries older
    /// than `maxAge`, then the least recently used).
    private mutating func store(_ entry: Entry, at key: Key, maxAge: Duration, now: Duration) {
        if let held = entries[key], held.requestedAt > entry.requestedAt { return }
        if entries[key] == nil, entries.count >= capacity {
            entries = entries.filter { isFresh($0.value, maxAge: maxAge, now: now) }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                entries[oldest.key] = nil
            }
        }
        uses += 1
        var entry = entry
        entry.lastUsed = uses
        entries[key] = entry
    }
}
