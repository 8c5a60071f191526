/// Validates the attachments a notification ends up with, as iOS does when the extension
/// calls its content handler. The pipeline runs it as its system stage, after the last step.
///
/// NSECore only defines the seam; `NSEMagic` provides the implementation that reads the bytes.
public protocol AttachmentValidator: Sendable {
    /// Checks every attachment; returns the accepted ones (typed, sized, possibly renamed to the
    /// right extension) and the rejected ones, plus warnings (e.g. a hint that disagrees with the bytes).
    func validate(_ attachments: [Attachment], context: ModifierContext) async -> AttachmentValidation
}

/// What attachment validation decided.
public struct AttachmentValidation: Sendable {
    public var accepted: [Attachment]
    public var rejected: [Rejection]
    public var warnings: [String]

    public init(accepted: [Attachment] = [], rejected: [Rejection] = [], warnings: [String] = []) {
        self.accepted = accepted
        self.rejected = rejected
        self.warnings = warnings
    }
}
