/// Warnings and rejections collected while one notification is processed. The context keeps
/// them behind its lock, since steps may report from any task.
struct Diagnostics {
    var warnings: [String] = []
    var rejected: [Rejection] = []
}
