import NSECore

/// The `decrypt` step: replaces the ciphertext in `field` with what it decrypts to.
///
/// Absent field: nothing happens. Any failure throws a `DecryptError`; the step's `on-error`
/// policy then decides (with `original`, the original content is delivered). Ciphertext is
/// never shown as text.
public struct DecryptModifier: SynchronousModifier {
    /// The step's name in reports: `decrypt`.
    public let name = "decrypt"
    /// The decryptor and its keys.
    public let decryptor: Decryptor
    /// The top-level payload key holding the ciphertext (default `enc`).
    public let field: String

    /// A step decrypting the ciphertext in `field` with `keys`.
    public init(keys: KeySet, field: String = "enc") {
        self.decryptor = Decryptor(keys: keys)
        self.field = field
    }

    /// Decrypts the field and applies the plaintext (see `Decryptor.apply`); no field, no change.
    public func modifySynchronously(_ content: inout NotificationContent, context: ModifierContext) throws {
        guard let value = content.payload[field], !value.isNull else {
            context.logger.debug("no \"\(field)\" in the payload; nothing to decrypt")
            return
        }
        let plaintext = try decryptor.decrypt(value, field: field)
        try Decryptor.apply(plaintext: plaintext, to: &content, removing: field)
    }
}
