import Logging
import Synchronization

/// One step of the chain: code that changes a notification's content before it is shown, as
/// `UNNotificationServiceExtension.didReceive(_:withContentHandler:)` does on the phone.
///
/// A modifier must be `Sendable`: one value serves every notification, from many tasks at once.
public protocol Modifier: Sendable {
    /// The step's name in reports and errors, e.g. `decrypt`.
    var name: String { get }

    /// Changes the content. Throwing marks the step failed; the step's error policy decides
    /// whether the chain goes on without its changes or the original content is delivered.
    func modify(_ content: inout NotificationContent, context: ModifierContext) async throws

    /// Called when the deadline passes while this step runs and the pipeline delivers its best
    /// attempt, as `serviceExtensionTimeWillExpire()` is: `content` is what the finished steps
    /// produced; change it to offer something better than that (e.g. "New message").
    /// It must return at once. The default leaves the content as it is.
    func timeWillExpire(_ content: inout NotificationContent, context: ModifierContext)

    /// True when `modify` never blocks its thread: it computes briefly and otherwise only
    /// awaits. A chain of such steps starts on the caller's thread, which saves two thread
    /// hand-offs a notification; a chain with any other step runs on nse's step threads from
    /// the start, so a step that blocks (a spin, a synchronous wait) cannot delay the answer
    /// at the deadline. The default is false: claim it only for code you know.
    var neverBlocks: Bool { get }

    /// Does the step's whole work at once and returns true when it needs no waiting this time
    /// (the `media` step, when every file it needs was downloaded moments ago); otherwise
    /// returns false having changed nothing (no content, warnings or files; the notification's
    /// own scratch directory may have been made), and the pipeline awaits `modify` instead. It runs on the caller's thread, like a
    /// `SynchronousModifier`, and must be as brief. The default returns false.
    func modifyImmediately(_ content: inout NotificationContent, context: ModifierContext) throws -> Bool
}

extension Modifier {
    public func timeWillExpire(_ content: inout NotificationContent, context: ModifierContext) {}

    public var neverBlocks: Bool { false }

    public func modifyImmediately(_ content: inout NotificationContent, context: ModifierContext) throws -> Bool {
        false
    }
}

/// A step that only computes (decrypting, rewriting text): its work is a plain function call.
///
/// The pipeline runs the synchronous steps at the head of a chain as plain calls on the
/// caller's thread, before any task or clock is involved, and checks the deadline after each.
/// The work must be brief: a step that is still computing when the deadline passes is not cut
/// off, but what it produces arrives late and the fallback is delivered instead, as on the
/// phone. Anything that waits (I/O, a lock held by others, a sleep) belongs in `modify`.
public protocol SynchronousModifier: Modifier {
    /// Changes the content, as `modify` does, without suspending.
    func modifySynchronously(_ content: inout NotificationContent, context: ModifierContext) throws
}

extension SynchronousModifier {
    public func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {
        try modifySynchronously(&content, context: context)
    }

    public func modifyImmediately(_ content: inout NotificationContent, context: ModifierContext) throws -> Bool {
        try modifySynchronously(&content, context: context)
        return true
    }

    public var neverBlocks: Bool { true }
}

/// What a modifier may use besides the content: the request as it arrived, the deadline,
/// this notification's scratch directory, a logger, and the process's shared services.
public struct ModifierContext: Sendable {
    /// Everything in one object: a context is handed to every step and copied as it goes, and
    /// one reference is cheaper to copy (and one allocation cheaper to make) than seven.
    private final class Storage: Sendable {
        let request: NotificationRequest
        let deadline: ContinuousClock.Instant
        let baseLogger: Logger
        let services: Services
        let scratch: ScratchDirectory
        let diagnostics = Mutex(Diagnostics())

        init(
            request: NotificationRequest, deadline: ContinuousClock.Instant, baseLogger: Logger,
            services: Services, scratch: ScratchDirectory
        ) {
            self.request = request
            self.deadline = deadline
            self.baseLogger = baseLogger
            self.services = services
            self.scratch = scratch
        }
    }

    private let storage: Storage

    /// The request as it arrived, before any step ran.
    public var request: NotificationRequest { storage.request }
    /// When the content must be delivered.
    public var deadline: ContinuousClock.Instant { storage.deadline }
    /// A logger carrying the notification's id.
    public var logger: Logger {
        // The id is added on use: most notifications log nothing, and metadata costs an allocation.
        var logger = storage.baseLogger
        logger[metadataKey: "notification"] = "\(storage.request.id)"
        return logger
    }
    /// Shared services (a downloader, a sniffer, a key store), looked up by key.
    public var services: Services { storage.services }
    var scratch: ScratchDirectory { storage.scratch }
    /// The warnings and rejections the steps have reported so far.
    var diagnostics: Diagnostics { storage.diagnostics.withLock { $0 } }

    init(
        request: NotificationRequest, deadline: ContinuousClock.Instant, logger: Logger,
        services: Services, scratch: ScratchDirectory
    ) {
        storage = Storage(request: request, deadline: deadline, baseLogger: logger, services: services, scratch: scratch)
    }

    /// The time left until the deadline (zero or negative once it has passed).
    public var remaining: Duration { deadline - ContinuousClock.now }

    /// This notification's own directory, created on first use. Attachments are written here
    /// and nowhere else.
    public func scratchDirectory() throws -> String {
        try scratch.path()
    }

    /// Adds a warning to the result.
    public func warn(_ message: String) {
        storage.diagnostics.withLock { $0.warnings.append(message) }
    }

    /// Records an attachment that was refused; the notification still goes out without it.
    public func reject(_ rejection: Rejection) {
        storage.diagnostics.withLock { $0.rejected.append(rejection) }
    }

    /// A context for testing a modifier on its own, outside a pipeline.
    public static func standalone(
        request: NotificationRequest,
        deadline: Duration = .seconds(30),
        scratchRoot: String? = nil,
        services: Services = Services(),
        logger: Logger = Logger(label: "nse")
    ) -> ModifierContext {
        ModifierContext(
            request: request, deadline: .now + deadline, logger: logger, services: services,
            scratch: ScratchDirectory(root: scratchRoot ?? ScratchDirectory.defaultRoot, notificationID: request.id))
    }

    /// The warnings recorded so far (for tests of a single modifier).
    public var warnings: [String] { diagnostics.warnings }
    /// The rejections recorded so far (for tests of a single modifier).
    public var rejections: [Rejection] { diagnostics.rejected }
}

/// A key for a shared service in `Services`.
public protocol ServiceKey {
    associatedtype Value: Sendable
}

/// Shared services by key, so NSECore needs to know none of their types.
public struct Services: Sendable {
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    public subscript<Key: ServiceKey>(_ key: Key.Type) -> Key.Value? {
        get { storage[ObjectIdentifier(key)] as? Key.Value }
        set { storage[ObjectIdentifier(key)] = newValue }
    }
}
