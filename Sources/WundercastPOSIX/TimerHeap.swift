/// The deadlines an ``EventLoop`` waits for: a binary min-heap of (deadline, number) with the
/// work of each live timer kept by number, so that cancelling is a removal from the table (its
/// heap entry is skipped when it comes up). Confined to the loop's thread; a plain struct.
struct TimerHeap {
    private var heap: [(deadline: ContinuousClock.Instant, id: UInt64)] = []
    private var work: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    /// Live timers.
    var count: Int { work.count }

    /// Adds `body` for `deadline`; returns its number (for ``cancel(_:)``).
    mutating func add(_ deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        work[id] = body
        heap.append((deadline, id))
        siftUp(heap.count - 1)
        return id
    }

    /// Removes timer `id` if it has not run; returns whether it was live.
    @discardableResult
    mutating func cancel(_ id: UInt64) -> Bool { work.removeValue(forKey: id) != nil }

    /// The earliest deadline of a live timer.
    mutating func nextDeadline() -> ContinuousClock.Instant? {
        dropCancelled()
        return heap.first?.deadline
    }

    /// Takes the work of the earliest live timer due at `now`, if any (one at a time, so that
    /// a timer cancelled by the one before it in the same turn does not run).
    mutating func popDue(at now: ContinuousClock.Instant) -> (() -> Void)? {
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let body = work.removeValue(forKey: first.id) { return body }
        }
        return nil
    }

    private mutating func dropCancelled() {
        while let first = heap.first, work[first.id] == nil { popFirst() }
    }

    private mutating func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
