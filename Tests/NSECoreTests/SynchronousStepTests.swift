import Foundation
import NSECore
import Synchronization
import Testing

/// A synchronous modifier made of a closure.
struct SynchronousClosureModifier: SynchronousModifier {
    let name: String
    let body: @Sendable (inout NotificationContent, ModifierContext) throws -> Void
    var expire: (@Sendable (inout NotificationContent) -> Void)? = nil

    init(
        _ name: String, expire: (@Sendable (inout NotificationContent) -> Void)? = nil,
        _ body: @escaping @Sendable (inout NotificationContent, ModifierContext) throws -> Void
    ) {
        self.name = name
        self.body = body
        self.expire = expire
    }

    func modifySynchronously(_ content: inout NotificationContent, context: ModifierContext) throws {
        try body(&content, context)
    }

    func timeWillExpire(_ content: inout NotificationContent, context: ModifierContext) {
        expire?(&content)
    }
}

/// Keeps the attachments whose file exists, rejects the others: enough to see when and where
/// the pipeline's system stage runs. It records the threads it ran on, and can take a while.
final class ExistingFileValidator: SynchronousAttachmentValidator {
    let threads = Mutex<[UInt]>([])
    let computing: Duration

    init(computing: Duration = .zero) {
        self.computing = computing
    }

    func validateSynchronously(_ attachments: [NSECore.Attachment], context: ModifierContext) -> AttachmentValidation {
        threads.withLock { $0.append(currentThread()) }
        compute(for: computing)
        var validation = AttachmentValidation()
        for attachment in attachments {
            if FileManager.default.fileExists(atPath: attachment.file) {
                validation.accepted.append(attachment)
            } else {
                validation.rejected.append(Rejection(identifier: attachment.identifier, source: attachment.file, reason: .invalidURL, detail: "no file"))
            }
        }
        return validation
    }
}

/// The same checks behind an `async` validator that is not synchronous, so the pipeline awaits it.
struct AwaitedValidator: AttachmentValidator {
    let checks = ExistingFileValidator()
    func validate(_ attachments: [NSECore.Attachment], context: ModifierContext) async -> AttachmentValidation {
        await Task.yield()
        return checks.validateSynchronously(attachments, context: context)
    }
}

/// A step that finishes at once when its content says so (`"ready": 1`), and otherwise
/// waits; counts how often each path ran.
final class SometimesImmediateModifier: Modifier {
    let name = "sometimes"
    let immediate = Atomic<Int>(0)
    let awaited = Atomic<Int>(0)

    func modifyImmediately(_ content: inout NotificationContent, context: ModifierContext) throws -> Bool {
        guard content.payload["ready"] != nil else { return false }
        immediate.add(1, ordering: .relaxed)
        content.title = "at once"
        return true
    }

    func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {
        await Task.yield()
        awaited.add(1, ordering: .relaxed)
        content.title = "awaited"
    }
}

/// Busy for `duration` on the calling thread, as a step that computes too long would be.
func compute(for duration: Duration) {
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end {}
}

func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) }

@Suite("Synchronous steps")
struct SynchronousStepTests {
    @Test("a chain of synchronous steps runs on the caller's thread; other steps run on nse's threads")
    func callerThread() async throws {
        let seen = Mutex<[UInt]>([])
        let synchronous = Pipeline(steps: [
            .init(SynchronousClosureModifier("a") { _, _ in seen.withLock { $0.append(currentThread()) } }),
            .init(SynchronousClosureModifier("b") { _, _ in seen.withLock { $0.append(currentThread()) } }),
        ])
        // Nothing between reading the thread and the chain suspends, so the task stays put.
        let caller = currentThread()
        let result = await synchronous.process(try request())
        #expect(result.steps.map(\.status) == [.ok, .ok])
        #expect(seen.withLock { $0 } == [caller, caller])

        let other = Pipeline(steps: [.init(ClosureModifier("c") { _, _ in seen.withLock { $0.append(currentThread()) } })])
        let before = currentThread()
        _ = await other.process(try request())
        #expect(seen.withLock { $0.last } != before)
    }

    @Test("synchronous steps change the content, and later steps see it")
    func chained() async throws {
        let pipeline = Pipeline(steps: [
            .init(SynchronousClosureModifier("title") { content, _ in content.title = "x " + (content.title ?? "") }),
            .init(ClosureModifier("body") { content, _ in
                await Task.yield()
                content.body = "after " + (content.title ?? "")
            }),
        ])
        let result = await pipeline.process(try request())
        #expect(result.outcome == .modified)
        #expect(result.content.title == "x Hi")
        #expect(result.content.body == "after x Hi")
        #expect(result.steps.map(\.status) == [.ok, .ok])
        #expect(String(decoding: result.contentJSON(), as: UTF8.self).contains(#""_j_msgid":29273432613945685"#))
    }

    @Test("a synchronous step that changes nothing leaves the input byte for byte")
    func unchanged() async throws {
        let text = #"{"aps":{"alert":"caf\u00e9","mutable-content":1},"n":1.50}"#
        let pipeline = Pipeline(steps: [.init(SynchronousClosureModifier("look") { content, _ in _ = content.title })])
        let result = await pipeline.process(try request(text))
        #expect(result.outcome == .unchanged)
        #expect(result.contentJSON() == Array(text.utf8))
    }

    @Test("a failing synchronous step follows its error policy")
    func failures() async throws {
        let skip = Pipeline(steps: [
            .init(SynchronousClosureModifier("bad") { content, _ in
                content.title = "half done"
                throw StepError()
            }),
            .init(SynchronousClosureModifier("after") { content, _ in content.body = "after" }),
        ])
        let skipped = await skip.process(try request())
        #expect(skipped.outcome == .modified)
        #expect(skipped.content.title == "Hi")
        #expect(skipped.content.body == "after")
        #expect(skipped.steps.map(\.status) == [.failed, .ok])
        #expect(skipped.steps[0].error == "the server said no")

        let ran = Atomic<Bool>(false)
        let original = Pipeline(steps: [
            .init(SynchronousClosureModifier("title") { content, _ in content.title = "changed" }),
            .init(SynchronousClosureModifier("decrypt") { _, _ in throw StepError() }, onError: .original),
            .init(ClosureModifier("after") { _, _ in ran.store(true, ordering: .relaxed) }),
        ])
        let result = await original.process(try request())
        #expect(result.outcome == .fallback)
        #expect(result.reason == "step-failed:decrypt")
        #expect(result.contentJSON() == Array(mutablePayload.utf8))
        #expect(result.steps.map(\.status) == [.ok, .failed, .notRun])
        let ranAfter = ran.load(ordering: .relaxed)
        #expect(!ranAfter)
    }

    @Test("a synchronous step still computing at the deadline gets the fallback, and the rest never runs")
    func lateStep() async throws {
        let ran = Atomic<Bool>(false)
        let steps: [Pipeline.Step] = [
            .init(SynchronousClosureModifier("title") { content, _ in content.title = "From Anna" }),
            .init(SynchronousClosureModifier("slow", expire: { content in content.body = "New message" }) { content, _ in
                content.body = "too late"
                compute(for: .milliseconds(150))
            }),
            .init(SynchronousClosureModifier("after") { _, _ in ran.store(true, ordering: .relaxed) }),
        ]
        let original = await Pipeline(steps: steps, deadline: .milliseconds(50)).process(try request())
        #expect(original.outcome == .fallback)
        #expect(original.reason == "deadline")
        #expect(original.contentJSON() == Array(mutablePayload.utf8))
        #expect(original.steps.map(\.status) == [.ok, .timedOut, .notRun])
        #expect(original.elapsed >= .milliseconds(150))

        let best = await Pipeline(steps: steps, deadline: .milliseconds(50), onTimeout: .bestAttempt).process(try request())
        #expect(best.outcome == .fallback)
        #expect(best.content.title == "From Anna")
        #expect(best.content.body == "New message")
        let ranAfter = ran.load(ordering: .relaxed)
        #expect(!ranAfter)
    }

    @Test("the deadline passing in a later step keeps the synchronous steps' work as the best attempt")
    func deadlineAfterHead() async throws {
        let pipeline = Pipeline(
            steps: [
                .init(SynchronousClosureModifier("title") { content, _ in content.title = "From Anna" }),
                .init(DelayModifier(duration: nil, honorsCancellation: false)),
            ],
            deadline: .milliseconds(200), onTimeout: .bestAttempt)
        let result = await pipeline.process(try request())
        #expect(result.reason == "deadline")
        #expect(result.content.title == "From Anna")
        #expect(result.steps.map(\.status) == [.ok, .timedOut])
        // Decided at the deadline; the bound leaves room for a loaded machine.
        #expect(result.elapsed >= .milliseconds(200) && result.elapsed < .seconds(1))
    }

    @Test("attachments added by synchronous steps are validated")
    func validation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nse-sync-\(UInt32.random(in: 0...UInt32.max)).jpg").path
        FileManager.default.createFile(atPath: file, contents: Data([0xFF, 0xD8]))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let pipeline = Pipeline(
            steps: [.init(SynchronousClosureModifier("attach") { content, _ in
                content.attachments = [
                    NSECore.Attachment(identifier: "kept", file: file),
                    NSECore.Attachment(identifier: "gone", file: file + ".missing"),
                ]
            })],
            validator: AwaitedValidator())
        let result = await pipeline.process(try request())
        #expect(result.attachments.map(\.identifier) == ["kept"])
        #expect(result.rejected.map(\.identifier) == ["gone"])
    }

    @Test("a step that can finish at once does so on the caller's thread; otherwise its awaited work runs")
    func immediateOrAwaited() async throws {
        let step = SometimesImmediateModifier()
        let pipeline = Pipeline(steps: [.init(step)])
        let ready = await pipeline.process(try request(#"{"aps":{"alert":"a","mutable-content":1},"ready":1}"#))
        #expect(ready.content.title == "at once")
        let waiting = await pipeline.process(try request())
        #expect(waiting.content.title == "awaited")
        #expect(step.immediate.load(ordering: .relaxed) == 1)
        #expect(step.awaited.load(ordering: .relaxed) == 1)
    }

    @Test("a synchronous validator runs on the caller's thread after steps that finished at once")
    func synchronousValidation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nse-sync-\(UInt32.random(in: 0...UInt32.max)).jpg").path
        FileManager.default.createFile(atPath: file, contents: Data([0xFF, 0xD8]))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let validator = ExistingFileValidator()
        let pipeline = Pipeline(
            steps: [.init(SynchronousClosureModifier("attach") { content, _ in
                content.attachments = [NSECore.Attachment(identifier: "kept", file: file), NSECore.Attachment(identifier: "gone", file: file + ".x")]
            })],
            validator: validator)
        let caller = currentThread()
        let result = await pipeline.process(try request())
        #expect(result.attachments.map(\.identifier) == ["kept"])
        #expect(validator.threads.withLock { $0 } == [caller])
    }

    @Test("a synchronous validation that ends after the deadline is late; the best attempt keeps its verdicts")
    func lateValidation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nse-late-\(UInt32.random(in: 0...UInt32.max)).jpg").path
        FileManager.default.createFile(atPath: file, contents: Data([0xFF, 0xD8]))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let validator = ExistingFileValidator(computing: .milliseconds(150))
        let steps: [Pipeline.Step] = [.init(SynchronousClosureModifier("attach") { content, _ in
            content.attachments = [NSECore.Attachment(identifier: "kept", file: file), NSECore.Attachment(identifier: "gone", file: file + ".x")]
        })]
        let best = await Pipeline(steps: steps, deadline: .milliseconds(50), onTimeout: .bestAttempt, validator: validator)
            .process(try request())
        #expect(best.reason == "deadline")
        #expect(best.attachments.map(\.identifier) == ["kept"])
        #expect(best.rejected.map(\.identifier) == ["gone"])
        #expect(validator.threads.withLock { $0.count } == 1)

        let original = await Pipeline(steps: steps, deadline: .milliseconds(50), validator: validator).process(try request())
        #expect(original.reason == "deadline")
        #expect(original.attachments.isEmpty)
        #expect(original.contentJSON() == Array(mutablePayload.utf8))
    }

    @Test("a chain with nothing left to wait for still answers with the fallback once its deadline has passed")
    func pastDeadlineOnArrival() async throws {
        let pipeline = Pipeline(steps: [.init(SynchronousClosureModifier("title") { content, _ in content.title = "late" })], deadline: .milliseconds(10))
        let received = ContinuousClock.now - .milliseconds(50)
        let result = await pipeline.process(try NotificationRequest(id: "late", json: Array(mutablePayload.utf8), receivedAt: received))
        #expect(result.outcome == .fallback)
        #expect(result.reason == "deadline")
        #expect(result.contentJSON() == Array(mutablePayload.utf8))
    }
}
