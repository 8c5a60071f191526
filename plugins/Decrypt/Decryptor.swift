import NSECore

/// Decrypts the ciphertexts the plugin understands with the keys of one key set.
/// A value type, safe to share between tasks.
public struct Decryptor: Sendable {
    /// The keys it decrypts with.
    public let keys: KeySet

    /// A decryptor using `keys`.
    public init(keys: KeySet) {
        self.keys = keys
    }

    /// Decrypts a field's value: a JWE compact token, a base64url `aes128gcm` body, or an object
    /// `{"scheme": …, "body": …, "kid": …}` (see docs/decrypt.md). `field` names it in errors.
    public func decrypt(_ value: JSON, field: String = "enc") throws(DecryptError) -> [UInt8] {
        switch try Envelope(value, field: field) {
        case .jwe(let token, let kid):
            return try JWE.open(token, kid: kid, keys: keys)
        case .aes128gcm(let body, let kid):
            return try WebPush.openAES128GCM(body, kid: kid, keys: keys)
        case .aesgcm(let body, let salt, let dh, let recordSize, let kid):
            return try WebPush.openAESGCM(body, salt: salt, senderPoint: dh, recordSize: recordSize, kid: kid, keys: keys)
        }
    }

    /// Puts a plaintext into the content: a JSON object is applied as a JSON Merge Patch
    /// (RFC 7386) to the payload; any other UTF-8 text becomes the alert body. The ciphertext
    /// field is removed first, so only the plaintext can bring that key back.
    public static func apply(plaintext: [UInt8], to content: inout NotificationContent, removing field: String) throws(DecryptError) {
        content.payload[field] = nil
        if plaintext.first(where: { !isJSONSpace($0) }) == UInt8(ascii: "{"),
           let json = try? JSON(parsing: plaintext), case .object = json,
           case .object(let patched) = JSON.object(content.payload).merging(patch: json) {
            content.payload = patched
            return
        }
        guard let text = String(validating: plaintext, as: UTF8.self) else {
            throw .malformed("the plaintext is neither a JSON object nor UTF-8 text; the sender must encrypt one of those")
        }
        content.body = text
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
