import Dispatch
import Foundation
import Synchronization
import Testing
import WundercastPipeline

/// ``ObservableValue`` under a race: readers cancelled while another thread updates the value.
/// `Task.cancel()` runs the stream's `onTermination` holding the task's status lock, and a
/// delivery under the value's lock may wait for that status lock: `onTermination` must not
/// take the value's lock (it deadlocked both threads before).
@Suite(.timeLimit(.minutes(1))) struct ObservableValueCancellationTests {
    /// Whether the updater should stop (shared with its thread).
    final class Stop: Sendable {
        let requested = Atomic(false)
    }

    @Test func cancellingReadersWhileUpdatesRunDoesNotDeadlock() async {
        let value = ObservableValue(0)
        let stop = Stop()
        let updaterDone = DispatchSemaphore(value: 0)
        // A thread of its own, not a worker of the global queue that the tests' tasks run on:
        // it spins for the whole test, and would keep one of the pool's threads from them.
        Thread {
            while !stop.requested.load(ordering: .relaxed) {
                value.updateIfChanged { $0 += 1 }
                value.update { $0 += 1 }
            }
            updaterDone.signal()
        }.start()
        var delivered = 0
        for _ in 0..<2_000 {
            let (started, startedHere) = AsyncStream<Int>.makeStream()
            let reader = Task {
                for await seen in value.values() { startedHere.yield(seen) }
            }
            for await seen in started {  // the reader is subscribed and waiting for changes
                delivered = max(delivered, seen)
                break
            }
            reader.cancel()
            await reader.value
        }
        stop.requested.store(true, ordering: .relaxed)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                updaterDone.wait()
                done.resume()
            }.start()
        }
        #expect(delivered > 0, "the readers saw the updates")
        #expect(value.readerCount == 0, "every cancelled reader is dropped")
    }

    /// Changes reach a reader in the order they were made, from threads updating at once.
    @Test func concurrentUpdatesArriveInOrder() async {
        let value = ObservableValue(0, bufferSize: 100_000)
        let stream = value.values()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 { value.update { $0 += 1 } }
        }
        value.finish()
        var seen: [Int] = []
        for await v in stream { seen.append(v) }
        #expect(seen == Array(0...4_000))
    }
}
