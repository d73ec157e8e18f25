import Synchronization
import WundercastModel
import WundercastProviders

/// The one answer of one transfer, given once to the task that awaits it: by the event loop when
/// libcurl is done with the transfer, or by the task's cancellation handler (``WeatherError/cancelled``),
/// whichever comes first; the later one is dropped. Either may come before the task has begun to
/// wait (a cancellation handler runs at once for a task cancelled already): the answer is kept
/// until then.
final class TransferCompletion: Sendable {
    typealias Answer = Result<CurlTransfer.Outcome, WeatherError>

    private let machine = Mutex(Machine())

    /// Whether the answer was given (the transfer need not start, or can go).
    var isAnswered: Bool { machine.withLock { $0.isAnswered } }

    /// Suspends until the answer, without blocking a thread.
    func wait() async -> Answer {
        await withCheckedContinuation { continuation in
            if let answer = machine.withLock({ $0.wait(continuation) }) { continuation.resume(returning: answer) }
        }
    }

    /// Gives the answer, if none was given yet (any thread).
    func answer(_ answer: Answer) {
        if let waiting = machine.withLock({ $0.answer(answer) }) { waiting.resume(returning: answer) }
    }

    /// The states of the answer and its waiter; each event returns what to resume outside the lock.
    struct Machine {
        private enum State {
            case empty
            case waiting(CheckedContinuation<Answer, Never>)
            case kept(Answer)
            case given
        }

        private var state = State.empty

        var isAnswered: Bool {
            switch state {
            case .empty, .waiting: false
            case .kept, .given: true
            }
        }

        /// The task waits: returns the kept answer to resume it with at once, if there is one.
        mutating func wait(_ continuation: CheckedContinuation<Answer, Never>) -> Answer? {
            switch state {
            case .empty:
                state = .waiting(continuation)
                return nil
            case .kept(let answer):
                state = .given
                return answer
            case .waiting, .given:
                preconditionFailure("a transfer's answer is awaited twice (state \(state))")
            }
        }

        /// An answer: returns the waiter to resume with it, if one waits; a second answer is dropped.
        mutating func answer(_ answer: Answer) -> CheckedContinuation<Answer, Never>? {
            switch state {
            case .empty:
                state = .kept(answer)
                return nil
            case .waiting(let continuation):
                state = .given
                return continuation
            case .kept, .given:
                return nil
            }
        }
    }
}
