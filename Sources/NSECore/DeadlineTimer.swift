import Foundation

/// One thread that fires deadline actions, shared by every pipeline in the process.
///
/// Each notification schedules one action and almost always cancels it when its chain finishes
/// first; cancelling removes the entry at once, so a busy process does not keep thirty seconds'
/// worth of finished notifications alive, as one `DispatchQueue.asyncAfter` a notification would.
final class DeadlineTimer: @unchecked Sendable {
    static let shared = DeadlineTimer()

    /// A scheduled action; `cancel()` it when it is no longer needed.
    final class Entry: @unchecked Sendable {
        fileprivate let deadline: ContinuousClock.Instant
        fileprivate let action: @Sendable () -> Void
        fileprivate var index: Int  // position in the heap, -1 once removed
        fileprivate let timer: DeadlineTimer  // the shared timer, which lives as long as the process

        fileprivate init(deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void, timer: DeadlineTimer) {
            self.deadline = deadline
            self.action = action
            self.index = -1
            self.timer = timer
        }

        func cancel() {
            timer.remove(self)
        }
    }

    private let condition = MonotonicCondition()
    private var heap: [Entry] = []  // a binary min-heap on `deadline`; guarded by `condition`
    /// When the thread will next look at the heap by itself; `nil` while it waits for work.
    private var wakesAt: ContinuousClock.Instant?

    private init() {
        let thread = Thread { [unowned self] in
            nameCurrentThread("nse-deadline")
            self.run()
        }
        thread.start()
    }

    /// Calls `action` on the timer thread at `deadline`, unless cancelled first.
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Entry {
        let entry = Entry(deadline: deadline, action: action, timer: self)
        condition.lock()
        entry.index = heap.count
        heap.append(entry)
        siftUp(heap.count - 1)
        // Wake the thread only when it would otherwise sleep past this deadline: in the usual
        // case every new deadline is later than one already waited for, and nothing is woken.
        if wakesAt.map({ deadline < $0 }) ?? true { condition.signal() }
        condition.unlock()
        return entry
    }

    private func remove(_ entry: Entry) {
        condition.lock()
        defer { condition.unlock() }
        let index = entry.index
        guard index >= 0 else { return }
        let last = heap.count - 1
        swapAt(index, last)
        heap.removeLast()
        entry.index = -1
        if index < heap.count {
            siftDown(index)
            siftUp(index)
        }
    }

    private func run() {
        while true {
            condition.lock()
            var due: [Entry] = []
            let now = ContinuousClock.now
            while let first = heap.first, first.deadline <= now {
                due.append(first)
                swapAt(0, heap.count - 1)
                heap.removeLast()
                first.index = -1
                if !heap.isEmpty { siftDown(0) }
            }
            if due.isEmpty {
                if let first = heap.first {
                    wakesAt = first.deadline
                    condition.wait(for: first.deadline - now)
                } else {
                    wakesAt = nil
                    condition.wait()
                }
            }
            condition.unlock()
            for entry in due { entry.action() }
        }
    }

    // MARK: Heap

    private func swapAt(_ a: Int, _ b: Int) {
        guard a != b else { return }
        heap.swapAt(a, b)
        heap[a].index = a
        heap[b].index = b
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].deadline < heap[left].deadline { smallest = left + 1 }
            guard heap[smallest].deadline < heap[parent].deadline else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }
}
