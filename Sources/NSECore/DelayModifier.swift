import Dispatch
import Synchronization

/// A step that only waits: for trying a pipeline's deadline and fallback without a slow server.
///
/// ```yaml
/// steps:
///   - delay: { duration: 5s }                              # sleeps, ends early when cancelled
///   - delay: { duration: forever, honor-cancellation: false }  # never returns, like a hung extension
/// ```
public struct DelayModifier: Modifier {
    public let name = "delay"
    /// It only sleeps or awaits a continuation; it never holds its thread.
    public var neverBlocks: Bool { true }
    /// `nil` waits forever.
    public var duration: Duration?
    /// When false the step ignores cancellation, as badly written extension code does.
    public var honorsCancellation: Bool

    public init(duration: Duration?, honorsCancellation: Bool = true) {
        self.duration = duration
        self.honorsCancellation = honorsCancellation
    }

    public func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {
        if honorsCancellation {
            guard let duration else {
                // Sleep in long slices until cancelled.
                while true { try await Task.sleep(for: .seconds(3600)) }
            }
            try await Task.sleep(for: duration)
            return
        }
        // A continuation that only a timer (or nothing) resumes: cancellation cannot end it.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            guard let duration else { return Self.parked.append(continuation) }
            let (seconds, attoseconds) = duration.components
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let nanoseconds = overflow ? Int64.max : scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                continuation.resume()
            }
        }
    }

    /// Continuations that are never resumed, kept so the runtime does not report them as leaked.
    private static let parked = ParkedContinuations()
}

private final class ParkedContinuations: Sendable {
    private let list = Mutex<[CheckedContinuation<Void, Never>]>([])
    func append(_ continuation: CheckedContinuation<Void, Never>) {
        list.withLock { $0.append(continuation) }
    }
}

extension ModifierPlugin {
    /// `delay`: waits, to try deadlines and fallbacks.
    public static let delay = ModifierPlugin(
        name: "delay", summary: "waits (or hangs), to try the deadline and the fallback"
    ) { options, _ in
        try options.checkKeys(["duration", "honor-cancellation"])
        guard let durationNode = options["duration"] else {
            throw options.error("delay needs a duration, e.g. { duration: 5s } or { duration: forever }")
        }
        let duration: Duration? = (try? durationNode.string()) == "forever" ? nil : try durationNode.duration()
        let honors = try options["honor-cancellation"]?.bool() ?? true
        return DelayModifier(duration: duration, honorsCancellation: honors)
    }
}
