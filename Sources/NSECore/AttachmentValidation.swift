/// Validates the attachments a notification ends up with, as iOS does when the extension
/// calls its content handler. The pipeline runs it as its system stage, after the last step.
///
/// NSECore only defines the seam; `NSEMagic` provides the implementation that reads the bytes.
public protocol AttachmentValidator: Sendable {
    /// Checks every attachment; returns the accepted ones (typed, sized, possibly renamed to the
    /// right extension) and the rejected ones, plus warnings (e.g. a hint that disagrees with the bytes).
    func validate(_ attachments: [Attachment], context: ModifierContext) async -> AttachmentValidation
}

/// A validator whose work is a plain call (reading local files): when the steps before it
/// finished without waiting, the pipeline validates on the caller's thread too.
public protocol SynchronousAttachmentValidator: AttachmentValidator {
    /// Checks every attachment, as `validate` does, without suspending.
    func validateSynchronously(_ attachments: [Attachment], context: ModifierContext) -> AttachmentValidation
}

extension SynchronousAttachmentValidator {
    public func validate(_ attachments: [Attachment], context: ModifierContext) async -> AttachmentValidation {
        validateSynchronously(attachments, context: context)
    }
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
