import CEpoll
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread waiting in `epoll_wait` (level-triggered) and running the handlers of the
/// descriptors registered with it, in the style of gpsd's `select` loop: an event costs one
/// `epoll_wait` for a whole batch, no re-arming and no hand-over to another thread (what a
/// Dispatch source costs per event). Work from other threads arrives through ``post(_:)``
/// (an `eventfd` wakes the loop).
///
/// Timers (``schedule(at:_:)``) are the loop's too: `epoll_wait` waits until the earliest one,
/// on `ContinuousClock` (`CLOCK_BOOTTIME`), at millisecond resolution, never early.
///
/// Everything but ``post(_:)``, ``perform(_:)``, ``stop()`` and ``isCurrent`` is
/// for the loop's own thread (inside a handler, a timer or a posted closure), and checked to be
/// there (a precondition, as swift-nio's `EventLoop.preconditionInEventLoop`). ``stop()`` ends
/// the thread; work posted after it never runs (``post(_:)`` says so, ``perform(_:)`` stops
/// the process), ``isCurrent`` is false everywhere, and registered descriptors are not closed.
///
/// `@unchecked Sendable`: the handler table and the timers are confined to the pthread it
/// starts, which the compiler cannot see (checked at run time, `preconditionOnLoop`); what
/// other threads touch is behind the mailbox's `Mutex` or atomic.
public final class EventLoop: @unchecked Sendable {
    /// What a descriptor waits for, or what happened to it.
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        /// Hang-up or error (always reported, never asked for).
        public static let hangUp = Events(rawValue: EPOLLHUP.rawValue | EPOLLERR.rawValue)
    }

    /// A timer (``schedule(at:_:)``), for ``cancel(_:)``.
    public struct TimerID: Sendable, Hashable {
        let number: UInt64
    }

    /// A registration; its number is the epoll token, so an event still queued for a
    /// descriptor that was closed (and whose number was reused) reaches nobody.
    public struct Registration: Sendable, Equatable {
        fileprivate let token: UInt64
        public let fd: Int32
    }

    private let epollFD: Int32
    private let wakeFD: Int32
    private var handlers: [UInt64: (Events) -> Void] = [:]
    private var nextToken: UInt64 = 1
    private var timers = TimerHeap()
    private let name: String
    private let mailbox = Mutex<(work: [@Sendable () -> Void], awake: Bool, closed: Bool)>(([], false, false))
    private let running = Atomic<Bool>(true)
    private let threadID = Atomic<UInt>(0)
    private let ended = DispatchSemaphore(value: 0)
    /// Tasks awaiting the end in ``shutDown()``, and whether it has come.
    private let endWaiters = Mutex<(ended: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Starts the loop's thread, named `name` (15 bytes at most show in `top -H`).
    ///
    /// - Throws: ``Errno`` from `epoll_create1`, `eventfd` or `pthread_create`.
    public init(name: String) throws(Errno) {
        self.name = name
        epollFD = try blockingSyscall("epoll_create1", name) { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do throws(Errno) {
            wakeFD = try blockingSyscall("eventfd", name) { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        } catch {
            try? Descriptor.close(epollFD)
            throw error
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: 0))
        _ = try? blockingSyscall("epoll_ctl", name) { epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) }
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                let loop = Unmanaged<EventLoop>.fromOpaque(raw!).takeRetainedValue()
                loop.run()
                return nil
            }, box)
        guard created == 0 else {
            Unmanaged<EventLoop>.fromOpaque(box).release()
            try? Descriptor.close(wakeFD)
            try? Descriptor.close(epollFD)
            throw Errno(call: "pthread_create", subject: name, code: created)
        }
        _ = pthread_detach(thread)
    }

    /// Whether the caller runs on the loop's thread.
    public var isCurrent: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Stops the process when the caller is not on the loop's thread (loop-bound state touched
    /// from elsewhere is a data race: better a crash with the place than a silent one).
    public func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(isCurrent, "not on the \(name) event loop's thread", file: file, line: line)
    }

    /// Runs `body` on the loop's thread and returns its result to the awaiting task, which is
    /// suspended meanwhile (no thread blocks). Once the loop has ended nothing runs on it any
    /// more: calling this then stops the process with that message (the body would touch
    /// state of a loop that no thread serves).
    public func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if isCurrent { return body() }
        let name = self.name
        return await withCheckedContinuation { continuation in
            if !post({ continuation.resume(returning: body()) }) {
                preconditionFailure("perform on the \(name) event loop after it ended: no thread serves it")
            }
        }
    }

    /// Runs `work` on the loop's thread once `ContinuousClock.now` has reached `deadline` (a
    /// deadline passed already: on the next turn of the loop). Loop thread only.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void) -> TimerID {
        preconditionOnLoop()
        return TimerID(number: timers.add(deadline, work))
    }

    /// Cancels a timer that has not run (nothing happens for one that has). Loop thread only.
    public func cancel(_ timer: TimerID) {
        preconditionOnLoop()
        timers.cancel(timer.number)
    }

    /// Runs `work` on the loop's thread, after what is already posted (any thread). Returns
    /// `false`, and drops `work`, once the loop has ended.
    @discardableResult
    public func post(_ work: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, wake) = mailbox.withLock { box -> (Bool, Bool) in
            guard !box.closed else { return (false, false) }
            box.work.append(work)
            defer { box.awake = true }
            return (true, !box.awake)
        }
        if wake {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
        return accepted
    }

    /// Watches `fd` for `events`; `handler` runs on the loop's thread with what happened.
    ///
    /// - Throws: ``Errno`` from `epoll_ctl`.
    public func register(
        _ fd: Int32, for events: Events, handler: @escaping (Events) -> Void
    ) throws(Errno) -> Registration {
        preconditionOnLoop()
        let registration = Registration(token: nextToken, fd: fd)
        nextToken += 1
        var event = epoll_event(events: events.rawValue, data: epoll_data_t(u64: registration.token))
        _ = try blockingSyscall("epoll_ctl", "fd \(fd)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) }
        handlers[registration.token] = handler
        return registration
    }

    /// Changes what a registered descriptor waits for (`[]`: only hang-ups).
    public func modify(_ registration: Registration, for events: Events) {
        preconditionOnLoop()
        var event = epoll_event(events: events.rawValue, data: epoll_data_t(u64: registration.token))
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, registration.fd, &event)
    }

    /// Stops watching; call before closing the descriptor.
    public func unregister(_ registration: Registration) {
        preconditionOnLoop()
        handlers[registration.token] = nil
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, registration.fd, nil)
    }

    /// Ends the loop's thread after the work posted so far and waits for it (not on the loop's
    /// own thread), blocking the calling thread: async code awaits ``shutDown()``. Idempotent.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        post {}
        if !isCurrent { ended.wait() }
    }

    /// Ends the loop's thread after the work posted so far and suspends the calling task until
    /// it has ended (no thread blocks: what async code calls instead of ``stop()``). Idempotent.
    public func shutDown() async {
        if running.exchange(false, ordering: .acquiringAndReleasing) { post {} }
        await withCheckedContinuation { continuation in
            let over = endWaiters.withLock { box -> Bool in
                if !box.ended { box.waiting.append(continuation) }
                return box.ended
            }
            if over { continuation.resume() }
        }
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        ThreadName.set(name)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while running.load(ordering: .acquiring) {
            let timeout = waitMilliseconds()
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollFD, $0.baseAddress, Int32($0.count), timeout)
            }
            runDueTimers()
            if count < 0 { continue }  // EINTR
            // A handler may stop the loop (its owner going away): nothing of the batch runs after.
            for i in 0..<Int(count) where running.load(ordering: .relaxed) {
                let token = events[i].data.u64
                if token == 0 {
                    runMailbox()
                } else if let handler = handlers[token] {
                    handler(Events(rawValue: events[i].events))
                }
            }
        }
        // Work posted before the end still runs (a ``perform(_:)`` caller waits for it).
        runMailbox(closing: true)
        handlers.removeAll()
        timers = TimerHeap()
        // No thread is the loop's any more: loop-bound state is touched from nowhere.
        threadID.store(0, ordering: .releasing)
        let waiting = endWaiters.withLock { box -> [CheckedContinuation<Void, Never>] in
            box.ended = true
            defer { box.waiting = [] }
            return box.waiting
        }
        for waiter in waiting { waiter.resume() }
        ended.signal()
    }

    /// Until the earliest timer, whole milliseconds rounded up (never early); -1 without one.
    private func waitMilliseconds() -> Int32 {
        guard let deadline = timers.nextDeadline() else { return -1 }
        return PollTimeout.milliseconds(until: deadline)
    }

    private func runDueTimers() {
        guard timers.count > 0 else { return }
        // One at a time: a timer that cancels another due in the same turn stops it.
        let now = ContinuousClock.now
        while running.load(ordering: .relaxed), let work = timers.popDue(at: now) { work() }
    }

    // The descriptors close only with the last reference: a late ``post(_:)`` must never write
    // to a number that was closed and given to another file meanwhile.
    deinit {
        try? Descriptor.close(wakeFD)
        try? Descriptor.close(epollFD)
    }

    /// Runs what was posted; `closing`: and refuses all work from now on.
    private func runMailbox(closing: Bool = false) {
        var count: UInt64 = 0
        _ = Glibc.read(wakeFD, &count, 8)
        let work = mailbox.withLock { box -> [@Sendable () -> Void] in
            box.awake = false
            box.closed = box.closed || closing
            var taken: [@Sendable () -> Void] = []
            swap(&taken, &box.work)
            return taken
        }
        for item in work { item() }
    }
}
