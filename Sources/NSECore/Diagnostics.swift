import Synchronization

/// Warnings and rejections collected while one notification is processed, from any task.
final class Diagnostics: Sendable {
    struct Snapshot {
        var warnings: [String] = []
        var rejected: [Rejection] = []
    }

    private let state = Mutex(Snapshot())

    func warn(_ message: String) {
        state.withLock { $0.warnings.append(message) }
    }

    func reject(_ rejection: Rejection) {
        state.withLock { $0.rejected.append(rejection) }
    }

    func snapshot() -> Snapshot {
        state.withLock { $0 }
    }
}
