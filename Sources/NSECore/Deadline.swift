import Dispatch
import Synchronization

/// Runs `work` against a deadline and returns at the deadline whether or not the work has
/// finished: a step that never yields, or ignores cancellation, cannot hold the answer back.
/// On expiry the work is cancelled and left to wind down on its own.
///
/// The work runs on `StepExecutor`'s threads and the clock is a Dispatch timer, so neither a
/// step that blocks its thread nor a busy cooperative pool can hold the answer back.
func raceAgainstDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant,
    work: @escaping @Sendable () async -> Value
) async -> Value? {
    let race = Race<Value>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            race.install(continuation)
            let task = Task(executorPreference: StepExecutor.shared) { race.finish(await work()) }
            race.onExpiry { task.cancel() }
            let remaining = deadline - ContinuousClock.now
            let (seconds, attoseconds) = remaining.components
            let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                race.expire()
            }
        }
    } onCancel: {
        race.expire()
    }
}

/// Whichever comes first, the work's value or the deadline, resumes the continuation; the other is ignored.
private final class Race<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value?, Never>?
        var cancelWork: (@Sendable () -> Void)?
        var settled = false
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<Value?, Never>) {
        let alreadySettled = state.withLock { state in
            if !state.settled { state.continuation = continuation }
            return state.settled
        }
        // Cancelled before the race began.
        if alreadySettled { continuation.resume(returning: nil) }
    }

    func onExpiry(_ cancel: @escaping @Sendable () -> Void) {
        let settled = state.withLock { state in
            state.cancelWork = cancel
            return state.settled
        }
        // Expired before the work was even registered.
        if settled { cancel() }
    }

    func finish(_ value: Value) {
        settle(with: value, expired: false)
    }

    func expire() {
        settle(with: nil, expired: true)
    }

    private func settle(with value: Value?, expired: Bool) {
        let (continuation, cancel) = state.withLock { state -> (CheckedContinuation<Value?, Never>?, (@Sendable () -> Void)?) in
            guard !state.settled else { return (nil, nil) }
            state.settled = true
            defer { state.continuation = nil }
            return (state.continuation, expired ? state.cancelWork : nil)
        }
        continuation?.resume(returning: value)
        cancel?()
    }
}
