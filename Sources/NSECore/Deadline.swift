import Synchronization

/// Runs `work` against a deadline and returns at the deadline whether or not the work has
/// finished: a step that never yields, or ignores cancellation, cannot hold the answer back.
/// On expiry `onExpiry` runs first (to freeze what the work has reported), then the work is
/// cancelled and left to wind down on its own.
///
/// The work runs on `StepExecutor`'s threads and the clock is `DeadlineTimer`'s own thread, so
/// neither a step that blocks its thread nor a busy cooperative pool can hold the answer back.
///
/// With `startInline`, the work starts on the caller's thread and runs there until it first
/// suspends (`Task.immediate`), then goes on in the cooperative pool. Work that finishes without
/// suspending, the usual case for steps that only compute, then costs no thread hand-off, no
/// clock and no continuation. Only for work that never blocks its thread.
func raceAgainstDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant,
    startInline: Bool = false,
    onExpiry: @escaping @Sendable () -> Void = {},
    work: @escaping @Sendable () async -> Value
) async -> Value? {
    let race = Race<Value>(onExpiry: onExpiry)
    let task: Task<Void, Never>
    if startInline {
        task = Task.immediate { race.finish(await work()) }
        if let value = race.finishedValue { return value }
    } else {
        task = Task(executorPreference: StepExecutor.shared) { race.finish(await work()) }
    }
    let timer = DeadlineTimer.shared.schedule(at: deadline) { race.expire() }
    race.onSettle(cancelWork: { task.cancel() }, cancelTimer: { timer.cancel() })
    return await withTaskCancellationHandler {
        await withCheckedContinuation { race.install($0) }
    } onCancel: {
        race.expire()
    }
}

/// Whichever comes first, the work's value or the deadline, settles the race; the other is
/// ignored. The outcome waits for the continuation if it comes before it.
private final class Race<Value: Sendable>: Sendable {
    private enum Outcome {
        case pending
        case finished(Value)
        case expired
    }

    private struct State {
        var outcome = Outcome.pending
        var continuation: CheckedContinuation<Value?, Never>?
        var cancelWork: (@Sendable () -> Void)?
        var cancelTimer: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let onExpiry: @Sendable () -> Void

    init(onExpiry: @escaping @Sendable () -> Void) {
        self.onExpiry = onExpiry
    }

    /// The work's value, if it has already finished.
    var finishedValue: Value? {
        state.withLock { state in
            if case .finished(let value) = state.outcome { return value }
            return nil
        }
    }

    /// Registers the clean-up; runs it at once if the race is already over.
    func onSettle(cancelWork: @escaping @Sendable () -> Void, cancelTimer: @escaping @Sendable () -> Void) {
        let outcome = state.withLock { state in
            state.cancelWork = cancelWork
            state.cancelTimer = cancelTimer
            return state.outcome
        }
        switch outcome {
        case .pending: break
        case .finished: cancelTimer()
        case .expired:
            cancelTimer()
            cancelWork()
        }
    }

    /// Waits for the outcome: resumes at once if the race is already over.
    func install(_ continuation: CheckedContinuation<Value?, Never>) {
        let outcome = state.withLock { state in
            if case .pending = state.outcome { state.continuation = continuation }
            return state.outcome
        }
        switch outcome {
        case .pending: break
        case .finished(let value): continuation.resume(returning: value)
        case .expired: continuation.resume(returning: nil)
        }
    }

    func finish(_ value: Value) {
        settle(.finished(value))
    }

    func expire() {
        settle(.expired)
    }

    private func settle(_ outcome: Outcome) {
        let taken = state.withLock { state -> (CheckedContinuation<Value?, Never>?, (@Sendable () -> Void)?, (@Sendable () -> Void)?)? in
            guard case .pending = state.outcome else { return nil }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.cancelWork = nil
                state.cancelTimer = nil
            }
            if case .expired = outcome { return (state.continuation, state.cancelWork, state.cancelTimer) }
            return (state.continuation, nil, state.cancelTimer)
        }
        guard let (continuation, cancelWork, cancelTimer) = taken else { return }
        switch outcome {
        case .finished(let value): continuation?.resume(returning: value)
        case .expired, .pending:
            onExpiry()
            continuation?.resume(returning: nil)
        }
        cancelTimer?()
        // Cancelling runs the work's cancellation handlers; off the timer thread, so a slow one
        // cannot hold up other notifications' deadlines.
        if let cancelWork { Task.detached { cancelWork() } }
    }
}
