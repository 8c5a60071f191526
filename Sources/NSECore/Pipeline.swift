import Logging
import Synchronization

/// An ordered chain of modifiers, run inside one deadline, followed by attachment validation.
///
/// A `Pipeline` is a value that is safe to use from many tasks at once: `nse run`, `nse batch`
/// and `nse serve` share one.
public struct Pipeline: Sendable {
    /// What to do when a step throws.
    public enum ErrorPolicy: String, Sendable, Hashable, CaseIterable {
        /// Go on without the failed step's changes.
        case skip
        /// Stop and deliver the original content.
        case original
    }

    /// What to deliver when the deadline passes.
    public enum TimeoutPolicy: String, Sendable, Hashable, CaseIterable {
        /// The content as it arrived (iOS shows the original when an extension runs out of time).
        case original
        /// What the finished steps produced, plus what the running step's `timeWillExpire` offers.
        case bestAttempt = "best-attempt"
    }

    /// A modifier and its error policy.
    public struct Step: Sendable {
        public var modifier: any Modifier
        public var onError: ErrorPolicy

        public init(_ modifier: any Modifier, onError: ErrorPolicy = .skip) {
            self.modifier = modifier
            self.onError = onError
        }
    }

    /// iOS gives an extension about 30 seconds.
    public static let defaultDeadline: Duration = .seconds(30)

    public var steps: [Step]
    public var deadline: Duration
    public var onTimeout: TimeoutPolicy
    /// The system stage: checks attachments after the last step. `nil` accepts them unchecked.
    public var validator: (any AttachmentValidator)? {
        didSet { synchronousValidator = validator as? any SynchronousAttachmentValidator }
    }
    /// The validator as a `SynchronousAttachmentValidator`, if it is one: looked up once.
    private var synchronousValidator: (any SynchronousAttachmentValidator)?
    /// Where each notification's scratch directory is made.
    public var scratchRoot: String
    /// Shared services handed to every step.
    public var services: Services
    public var logger: Logger

    public init(
        steps: [Step] = [],
        deadline: Duration = Pipeline.defaultDeadline,
        onTimeout: TimeoutPolicy = .original,
        validator: (any AttachmentValidator)? = nil,
        scratchRoot: String? = nil,
        services: Services = Services(),
        logger: Logger = Logger(label: "nse")
    ) {
        self.steps = steps
        self.deadline = deadline
        self.onTimeout = onTimeout
        self.validator = validator
        self.synchronousValidator = validator as? any SynchronousAttachmentValidator
        self.scratchRoot = scratchRoot ?? ScratchDirectory.defaultRoot
        self.services = services
        self.logger = logger
    }

    /// Processes one notification and always answers, at the latest at its deadline.
    public func process(_ request: NotificationRequest) async -> NotificationResult {
        let deadline = request.receivedAt + (request.deadline ?? self.deadline)
        let original = request.content

        let byteCount = request.originalText?.count ?? JSON.object(request.payload).serialized().count
        var warnings = PayloadLinter.lint(request.payload, byteCount: byteCount)

        // The gate: iOS runs an extension only for mutable-content 1 with something to show.
        if let skipReason = Self.gateDecision(original) {
            var result = NotificationResult(
                id: request.id, outcome: .skipped, reason: skipReason, content: original,
                steps: steps.map { .init(name: $0.modifier.name, status: .notRun) },
                warnings: warnings, elapsed: ContinuousClock.now - request.receivedAt)
            result.originalText = request.originalText
            return result
        }

        let context = ModifierContext(
            request: request, deadline: deadline, logger: logger, services: services,
            scratch: ScratchDirectory(root: scratchRoot, notificationID: request.id))
        let chain = Chain(steps: steps, validator: validator)

        // Steps that can finish without waiting run first, as plain calls (synchronous steps
        // such as decrypt and rewrite; a media step whose files are at hand), and so does a
        // synchronous validation after them: such a chain needs no task and no clock.
        let head = chain.runImmediateHead(original, context: context, deadline: deadline, validator: synchronousValidator)
        var finished: Chain.Finished?
        var late: Progress.Snapshot?
        if let snapshot = head.late {
            late = snapshot
        } else if let done = head.finished {
            finished = done
        } else {
            let progress = Progress(head.state)
            let startInline = steps[head.state.next...].allSatisfy(\.modifier.neverBlocks)
            finished = await raceAgainstDeadline(deadline, startInline: startInline, onExpiry: { progress.freeze() }) {
                await chain.run(from: head.state, original: original, context: context, progress: progress)
            }
            // A chain that ended after the deadline (its last step only noticed the time when
            // its transfers were cut, a moment before the clock said so) is late all the same:
            // the phone would have shown the fallback.
            if let done = finished, done.finishedAt > deadline {
                progress.freeze()
                finished = nil
            }
            if finished == nil { late = progress.snapshot() }
        }

        let collected = context.diagnostics
        warnings += collected.warnings
        var result: NotificationResult
        if let finished {
            result = NotificationResult(
                id: request.id, outcome: finished.outcome, reason: finished.failureReason,
                content: finished.content, rejected: collected.rejected + finished.rejected, steps: finished.reports,
                warnings: warnings + finished.warnings)
        } else {
            result = await expired(
                request: request, original: original, context: context, snapshot: late!, warnings: warnings,
                validated: head.lateValidation)
        }
        // Elapsed time runs to when the answer was decided, on whichever thread decided it, so a
        // caller whose own threads are busy does not make the pipeline look late.
        let decidedAt = finished?.finishedAt ?? late?.frozenAt ?? ContinuousClock.now
        if result.content == original {
            if result.outcome == .modified { result.outcome = .unchanged }
            result.originalText = request.originalText
        }
        result.elapsed = decidedAt - request.receivedAt
        logger.debug("processed", metadata: [
            "notification": "\(request.id)", "outcome": "\(result.outcome.rawValue)", "reason": "\(result.reason ?? "")",
        ])
        return result
    }

    /// The result when the deadline passed before the chain finished: `snapshot` is how far it
    /// got. `validated` is a validation that ended too late: the snapshot's attachments are the
    /// ones it accepted, and are not validated again.
    private func expired(
        request: NotificationRequest, original: NotificationContent, context: ModifierContext,
        snapshot: Progress.Snapshot, warnings: [String], validated: AttachmentValidation? = nil
    ) async -> NotificationResult {
        let now = ContinuousClock.now
        var reports = snapshot.reports
        if let running = snapshot.running {
            reports[running.index] = .init(name: steps[running.index].modifier.name, status: .timedOut, duration: now - running.start)
        }
        let rejected = context.diagnostics.rejected
        var warnings = warnings
        var content = original
        if onTimeout == .bestAttempt {
            content = snapshot.content
            if let running = snapshot.running {
                steps[running.index].modifier.timeWillExpire(&content, context: context)
            }
            if let validated {
                return NotificationResult(
                    id: request.id, outcome: .fallback, reason: "deadline", content: content,
                    rejected: rejected + validated.rejected, steps: reports, warnings: warnings + validated.warnings)
            }
            // Attachments offered as the best attempt are checked too: iOS would refuse bad ones.
            if let validator, !content.attachments.isEmpty {
                let validation = await validator.validate(content.attachments, context: context)
                content.attachments = validation.accepted
                warnings += validation.warnings
                return NotificationResult(
                    id: request.id, outcome: .fallback, reason: "deadline", content: content,
                    rejected: rejected + validation.rejected, steps: reports, warnings: warnings)
            }
        }
        return NotificationResult(
            id: request.id, outcome: .fallback, reason: "deadline", content: content,
            rejected: rejected, steps: reports, warnings: warnings)
    }

    /// Why iOS would not run an extension for this content (`not-mutable`, `no-alert`), or `nil` if it would.
    public static func gateDecision(_ content: NotificationContent) -> String? {
        if !content.isMutable { return "not-mutable" }
        if !content.hasAlertText { return "no-alert" }
        return nil
    }
}

/// How far the chain got: read when the deadline passes to build the fallback.
final class Progress: Sendable {
    struct Snapshot {
        var content: NotificationContent
        var reports: [NotificationResult.StepReport]
        var running: (index: Int, start: ContinuousClock.Instant)?
        /// When the deadline passed: the moment the answer was decided.
        var frozenAt: ContinuousClock.Instant?
    }

    private let state: Mutex<(snapshot: Snapshot, frozen: Bool)>

    /// Starts from where the chain stands: every step is listed from the start, so a deadline
    /// that passes before the chain even began still reports each step (as not run).
    init(_ chain: Chain.State) {
        state = Mutex((Snapshot(content: chain.content, reports: chain.reports, running: nil), false))
    }

    /// Called at the deadline: what a cancelled step does afterwards does not count.
    func freeze() {
        let now = ContinuousClock.now
        state.withLock { state in
            state.frozen = true
            state.snapshot.frozenAt = now
        }
    }

    func started(_ index: Int, at start: ContinuousClock.Instant) {
        update { $0.running = (index, start) }
    }

    func finished(_ index: Int, report: NotificationResult.StepReport, content: NotificationContent) {
        update { state in
            state.reports[index] = report
            state.content = content
            state.running = nil
        }
    }

    func snapshot() -> Snapshot {
        state.withLock { $0.snapshot }
    }

    private func update(_ body: (inout Snapshot) -> Void) {
        state.withLock { state in
            if !state.frozen { body(&state.snapshot) }
        }
    }
}

/// The steps and the system stage, run in order.
struct Chain: Sendable {
    /// Where a chain stands: the content so far, each step's report, the next step to run.
    struct State: Sendable {
        var content: NotificationContent
        var reports: [NotificationResult.StepReport]
        var next = 0
        /// Set when a failed step's policy ends the chain with the original content.
        var failureReason: String?
    }

    /// How far the immediate head got: where the chain stands, and either the whole chain
    /// finished in time (validation included), or how far it got when the deadline passed.
    struct Head {
        var state: State
        /// Every step and the validation ended in time.
        var finished: Finished?
        /// The deadline passed during the head: what the fallback is built from, frozen when
        /// the late step or validation ended.
        var late: Progress.Snapshot?
        /// A validation that ended after the deadline: its rejections and warnings, for the
        /// best attempt, which offers what it accepted.
        var lateValidation: AttachmentValidation?
    }

    struct Finished: Sendable {
        var content: NotificationContent
        var reports: [NotificationResult.StepReport]
        var rejected: [Rejection] = []
        var warnings: [String] = []
        var failureReason: String?
        /// When the chain and the validation ended: the moment the answer was decided.
        var finishedAt = ContinuousClock.now

        /// `modified` until `process` finds the content equal to the original.
        var outcome: NotificationResult.Outcome { failureReason == nil ? .modified : .fallback }

        init(_ state: State, original: NotificationContent) {
            content = state.failureReason == nil ? state.content : original
            reports = state.reports
            failureReason = state.failureReason
        }
    }

    let steps: [Pipeline.Step]
    let validator: (any AttachmentValidator)?

    /// Runs the steps at the head of the chain that finish without waiting (see
    /// `Modifier.modifyImmediately`), on the caller's thread, and stops at the first that
    /// would wait, or when the deadline has passed. When every step ran, the attachments are
    /// validated here too if `validator` (the pipeline's, when synchronous) is given.
    func runImmediateHead(
        _ original: NotificationContent, context: ModifierContext, deadline: ContinuousClock.Instant,
        validator synchronousValidator: (any SynchronousAttachmentValidator)?
    ) -> Head {
        // Every step is listed from the start, as not run.
        var state = State(content: original, reports: steps.map { .init(name: $0.modifier.name, status: .notRun) })
        func late(running: (index: Int, start: ContinuousClock.Instant)?, content: NotificationContent) -> Head {
            Head(state: state, late: Progress.Snapshot(
                content: content, reports: state.reports, running: running, frozenAt: .now))
        }
        while state.next < steps.count, state.failureReason == nil, !Task.isCancelled {
            let start = ContinuousClock.now
            var attempt = state.content
            do {
                guard try steps[state.next].modifier.modifyImmediately(&attempt, context: context) else { break }
                if ContinuousClock.now > deadline { return late(running: (state.next, start), content: state.content) }
                succeeded(&state, with: attempt, since: start)
            } catch {
                if ContinuousClock.now > deadline { return late(running: (state.next, start), content: state.content) }
                failed(&state, error: error, since: start, context: context)
            }
        }
        guard state.failureReason != nil || state.next == steps.count else { return Head(state: state) }
        var finished = Finished(state, original: original)
        var validation: AttachmentValidation?
        if state.failureReason == nil, validator != nil, !state.content.attachments.isEmpty {
            guard let synchronousValidator else { return Head(state: state) }
            let checked = synchronousValidator.validateSynchronously(state.content.attachments, context: context)
            finished.content.attachments = checked.accepted
            finished.rejected = checked.rejected
            finished.warnings = checked.warnings
            validation = checked
        }
        finished.finishedAt = .now
        // Ended after the deadline (in the last step, or in validation): late, like any chain.
        if finished.finishedAt > deadline {
            var head = late(running: nil, content: validation == nil ? state.content : finished.content)
            head.lateValidation = validation
            return head
        }
        return Head(state: state, finished: finished)
    }

    /// Runs the rest of the chain from `state`, then the validation.
    func run(
        from state: State, original: NotificationContent, context: ModifierContext, progress: Progress
    ) async -> Finished {
        var state = state
        while state.next < steps.count, state.failureReason == nil {
            if Task.isCancelled { break }
            let index = state.next
            let start = ContinuousClock.now
            progress.started(index, at: start)
            var attempt = state.content
            do {
                try await steps[index].modifier.modify(&attempt, context: context)
                succeeded(&state, with: attempt, since: start)
            } catch {
                // Cancelled at the deadline: the answer has gone already, with this step timed out.
                if Task.isCancelled { break }
                failed(&state, error: error, since: start, context: context)
            }
            progress.finished(index, report: state.reports[index], content: state.content)
        }
        var finished = Finished(state, original: original)
        // After the deadline the answer is built from the progress, which validates what it
        // offers itself; validating here too would rename the same files under it.
        if Task.isCancelled || state.failureReason != nil { return finished }
        if let validator, !state.content.attachments.isEmpty {
            let validation = await validator.validate(state.content.attachments, context: context)
            finished.content.attachments = validation.accepted
            finished.rejected = validation.rejected
            finished.warnings = validation.warnings
        }
        finished.finishedAt = .now
        return finished
    }

    private func succeeded(_ state: inout State, with content: NotificationContent, since start: ContinuousClock.Instant) {
        state.content = content
        state.reports[state.next] = .init(name: steps[state.next].modifier.name, status: .ok, duration: .now - start)
        state.next += 1
    }

    /// Records a failed step; its error policy decides whether the chain goes on without it.
    private func failed(_ state: inout State, error: any Error, since start: ContinuousClock.Instant, context: ModifierContext) {
        let step = steps[state.next]
        let message = String(describing: error)
        state.reports[state.next] = .init(name: step.modifier.name, status: .failed, duration: .now - start, error: message)
        context.logger.warning("step failed", metadata: ["step": "\(step.modifier.name)", "error": "\(message)"])
        if step.onError == .original { state.failureReason = "step-failed:\(step.modifier.name)" }
        state.next += 1
    }
}
