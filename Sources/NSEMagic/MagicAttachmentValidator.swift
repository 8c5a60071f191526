#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NSECore

/// The pipeline's system stage: checks every attachment as iOS does, by its bytes.
///
/// For each attachment, in order:
/// - a missing file, or one outside the notification's scratch directory → `invalid-url`;
/// - an empty file → `invalid-file-size`;
/// - bytes of a type iOS does not accept → `unrecognized-type`, with libmagic's description;
/// - a file over its kind's limit → `invalid-file-size` (`image: 12000000 > 10000000 bytes`).
///
/// Accepted attachments get `kind`, `uti`, `mime` and `byteCount` from the bytes. A file
/// extension, declared MIME type or type hint that disagrees with the bytes is a warning; the
/// file is renamed to `<identifier>.<extension>` in its directory and a wrong hint is replaced.
/// A `.bin` name claims no type, so renaming it is not a warning.
public struct MagicAttachmentValidator: SynchronousAttachmentValidator {
    /// The sniffer (share one per process).
    public let sniffer: MagicSniffer
    /// The size limit of each kind.
    public let limits: AttachmentLimits

    /// Makes a validator.
    public init(sniffer: MagicSniffer, limits: AttachmentLimits = .ios) {
        self.sniffer = sniffer
        self.limits = limits
    }

    /// Validates the attachments of the notification `context` belongs to. Its work is reading
    /// local files (libmagic reads at most 16 KB of an accepted type), so the pipeline may run
    /// it on the caller's thread.
    public func validateSynchronously(_ attachments: [Attachment], context: ModifierContext) -> AttachmentValidation {
        let scratch: String
        do {
            scratch = try context.scratchDirectory()
        } catch {
            let rejected = attachments.map {
                Rejection(identifier: $0.identifier, source: $0.source ?? $0.file, reason: .invalidURL,
                          detail: "no scratch directory to check \($0.file) against: \(error)")
            }
            return AttachmentValidation(rejected: rejected)
        }
        let validation = validate(attachments, scratchDirectory: scratch)
        for rejection in validation.rejected {
            context.logger.debug("attachment refused", metadata: [
                "identifier": "\(rejection.identifier ?? "-")", "reason": "\(rejection.reason)", "detail": "\(rejection.detail)",
            ])
        }
        return validation
    }

    /// Validates attachments whose files must lie inside `scratchDirectory`. Works without a pipeline.
    public func validate(_ attachments: [Attachment], scratchDirectory: String) -> AttachmentValidation {
        var validation = AttachmentValidation()
        // The directory is resolved only for a file that is not plainly inside it (see AttachmentCheck).
        var check = AttachmentCheck(sniffer: sniffer, limits: limits, scratch: scratchDirectory)
        for attachment in attachments {
            switch check.run(attachment) {
            case .accepted(let accepted, let warnings):
                validation.accepted.append(accepted)
                validation.warnings += warnings
            case .rejected(let rejection, let warnings):
                validation.rejected.append(rejection)
                validation.warnings += warnings
            }
        }
        return validation
    }
}

/// The key under which a pipeline's `Services` holds the shared `MagicSniffer`.
public enum MagicSnifferKey: ServiceKey {
    /// The shared sniffer.
    public typealias Value = MagicSniffer
}
