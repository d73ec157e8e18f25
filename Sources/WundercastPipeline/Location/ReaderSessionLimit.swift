/// How often readers' `now` may open a GPS session under when-in-use with nobody watching
/// (issue 14, M2: each `now` from any user opened a gpsd session — 357 in 20 s from `nobody`).
///
/// A plain state machine, fed with requests and session ends at instants of the caller's
/// monotonic clock. A `now` opens a session only when:
/// - none is open (a `now` while one runs is answered by it: ``Decision/reuse``), and none
///   ended less than ``Limits/grace`` ago (its fix is the current one: ``Decision/reuse``);
/// - the user opened fewer than ``Limits/perUser`` sessions in the last ``Limits/window``, and
///   all users together fewer than ``Limits/total`` (else ``Decision/limited``).
///
/// Either way the reader is answered from the current state at once; a state whose fix is too
/// old says so (`no-fix`), it never claims a fix that was not taken.
public struct ReaderSessionLimit<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
    /// The numbers (README, Authorization).
    public struct Limits: Sendable, Equatable {
        /// A `now` this soon after a session ended opens none: 5 s.
        public var grace: Duration
        /// Sessions one user may open per ``window``: 4.
        public var perUser: Int
        /// Sessions all users together may open per ``window``: 8.
        public var total: Int
        /// The window of the two counts: 1 min.
        public var window: Duration

        public init(grace: Duration = .seconds(5), perUser: Int = 4, total: Int = 8, window: Duration = .seconds(60)) {
            self.grace = grace
            self.perUser = perUser
            self.total = total
            self.window = window
        }
    }

    /// What a `now` does.
    public enum Decision: Sendable, Equatable {
        /// It opens a session (counted for its user and in total).
        case open
        /// A session is open, or ended within ``Limits/grace``: it opens none.
        case reuse
        /// The user's or the total limit is reached: it opens none.
        case limited
    }

    public let limits: Limits
    private var isOpen = false
    private var lastEnded: Instant?
    /// Sessions opened within the last ``Limits/window``, oldest first: at most ``Limits/total``.
    private var opened: [(user: UInt32, at: Instant)] = []

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A `now` from `user` (its uid) at `now`.
    public mutating func request(user: UInt32, at now: Instant) -> Decision {
        if isOpen { return .reuse }
        if let lastEnded, lastEnded.duration(to: now) < limits.grace { return .reuse }
        let window = limits.window
        opened.removeAll { $0.at.duration(to: now) >= window }
        guard opened.count < limits.total, opened.count(where: { $0.user == user }) < limits.perUser else {
            return .limited
        }
        opened.append((user, now))
        isOpen = true
        return .open
    }

    /// The session opened by the last ``Decision/open`` ended (a fix, a time-out, or the status
    /// changed) at `now`. Does nothing when none is open.
    public mutating func ended(at now: Instant) {
        guard isOpen else { return }
        isOpen = false
        lastEnded = now
    }
}
