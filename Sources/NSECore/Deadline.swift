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
/// suspends (`Task.immediate`), then goes on in the cooperative pool: a chain of steps that
/// never block then costs no thread hand-off at all. Only for work that never blocks its thread.
func raceAgainstDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant,
    startInline: Bool = false,
    onExpiry: @escaping @Sendable () -> Void = {},
    work: @escaping @Sendable () async -> Value
) async -> Value? {
    let race = Race<Value>(onExpiry: onExpiry)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            race.install(continuation)
            let task = startInline
                ? Task.immediate { race.finish(await work()) }
                : Task(executorPreference: StepExecutor.shared) { race.finish(await work()) }
            // Work that finished inline needs no clock.
            guard !race.isSettled else { return }
            let timer = DeadlineTimer.shared.schedule(at: deadline) { race.expire() }
            race.onSettle(cancelWork: { task.cancel() }, cancelTimer: { timer.cancel() })
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
        var cancelTimer: (@Sendable () -> Void)?
        var settled = false
        var expired = false
    }

    private let state = Mutex(State())
    private let onExpiry: @Sendable () -> Void

    init(onExpiry: @escaping @Sendable () -> Void) {
        self.onExpiry = onExpiry
    }

    var isSettled: Bool { state.withLock { $0.settled } }

    func install(_ continuation: CheckedContinuation<Value?, Never>) {
        let alreadySettled = state.withLock { state in
            if !state.settled { state.continuation = continuation }
            return state.settled
        }
        // Cancelled before the race began.
        if alreadySettled { continuation.resume(returning: nil) }
    }

    /// Registers the clean-up; runs it at once if the race is already over.
    func onSettle(cancelWork: @escaping @Sendable () -> Void, cancelTimer: @escaping @Sendable () -> Void) {
        let (settled, expired) = state.withLock { state in
            state.cancelWork = cancelWork
            state.cancelTimer = cancelTimer
            return (state.settled, state.expired)
        }
        guard settled else { return }
        cancelTimer()
        if expired { cancelWork() }
    }

    func finish(_ value: Value) {
        settle(with: value, expired: false)
    }

    func expire() {
        settle(with: nil, expired: true)
    }

    private func settle(with value: Value?, expired: Bool) {
        let taken = state.withLock { state -> (CheckedContinuation<Value?, Never>?, (@Sendable () -> Void)?, (@Sendable () -> Void)?)? in
            guard !state.settled else { return nil }
            state.settled = true
            state.expired = expired
            defer {
                state.continuation = nil
                state.cancelWork = nil
                state.cancelTimer = nil
            }
            return (state.continuation, expired ? state.cancelWork : nil, state.cancelTimer)
        }
        guard let (continuation, cancelWork, cancelTimer) = taken else { return }
        if expired { onExpiry() }
        continuation?.resume(returning: value)
        cancelTimer?()
        cancelWork?()
    }
}
