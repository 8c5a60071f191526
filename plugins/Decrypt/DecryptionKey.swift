import Crypto

/// One private key of a key set, ready to decrypt with.
///
/// Its `description`, `debugDescription` and mirror show the `kid` and the kind of key only,
/// never key material, so a key can be logged or dumped safely.
public struct DecryptionKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What a key can decrypt.
    public enum Kind: String, Sendable, Hashable {
        /// A symmetric (`oct`) key: JWE `dir` and `A256KW`, and `aes128gcm` with a shared key.
        case symmetric
        /// An EC P-256 private key: JWE `ECDH-ES` and `ECDH-ES+A256KW`.
        case ec
        /// An EC P-256 private key with a WebPush `auth` secret: WebPush, and ECDH-ES JWE too.
        case webPush = "webpush"
    }

    enum Material: Sendable {
        case symmetric(SymmetricKey)
        case ec(P256.KeyAgreement.PrivateKey, publicPoint: [UInt8], auth: [UInt8]?)
    }

    /// The key's `kid`, if it has one.
    public let kid: String?
    let material: Material

    /// What this key can decrypt.
    public var kind: Kind {
        switch material {
        case .symmetric: .symmetric
        case .ec(_, _, let auth): auth == nil ? .ec : .webPush
        }
    }

    /// The size of a symmetric key in bits (nil for EC keys).
    public var symmetricBits: Int? {
        if case .symmetric(let key) = material { return key.bitCount }
        return nil
    }

    var symmetricKey: SymmetricKey? {
        if case .symmetric(let key) = material { return key }
        return nil
    }

    var agreementKey: P256.KeyAgreement.PrivateKey? {
        if case .ec(let key, _, _) = material { return key }
        return nil
    }

    /// A name for messages: `key "kid"` or `key #index`.
    var label: String { kid.map { "key \"\($0)\"" } ?? "a key without kid" }

    /// Kind, kid and size only; the key material is `<redacted>`.
    public var description: String {
        var text = "DecryptionKey(\(kind.rawValue)"
        if let kid { text += ", kid: \"\(kid)\"" }
        if let bits = symmetricBits { text += ", \(bits) bits" }
        return text + ", <redacted>)"
    }

    /// The same as `description`: redacted.
    public var debugDescription: String { description }

    /// Kid and kind only: `dump` and reflection must not reach the key bytes.
    public var customMirror: Mirror {
        Mirror(self, children: ["kid": kid as Any, "kind": kind, "material": "<redacted>"], displayStyle: .struct)
    }
}
