import Foundation

/// The threads steps run on, apart from Swift's shared cooperative pool.
///
/// A modifier that blocks its thread (a spin, a synchronous C call that hangs) then holds one
/// of these threads, not one of the few the pipeline needs to deliver its answer at the
/// deadline. The pool is small and fixed: steps are meant to suspend, not to block.
final class StepExecutor: TaskExecutor, @unchecked Sendable {
    /// Shared by every pipeline in the process.
    static let shared = StepExecutor(threads: max(4, ProcessInfo.processInfo.activeProcessorCount * 2))

    private let condition = NSCondition()
    // A two-stack queue: jobs are appended to `incoming` and taken from the end of `outgoing`.
    private var incoming: [UnownedJob] = []
    private var outgoing: [UnownedJob] = []

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in
                nameCurrentThread("nse-step-\(index)")
                self.work()
            }
            thread.start()
        }
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        incoming.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while incoming.isEmpty && outgoing.isEmpty { condition.wait() }
            if outgoing.isEmpty {
                outgoing = incoming.reversed()
                incoming.removeAll(keepingCapacity: true)
            }
            let job = outgoing.removeLast()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Names the calling thread, so it can be told apart in `top -H`, `perf` and debuggers.
func nameCurrentThread(_ name: String) {
    #if os(Linux)
    // Glibc's pthread_setname_np is not visible to Swift; the kernel takes the name here.
    try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    #else
    Thread.current.name = name
    #endif
}
