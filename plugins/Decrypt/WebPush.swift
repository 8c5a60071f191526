import Crypto

/// WebPush message encryption (RFC 8291 over RFC 8188, and the legacy `aesgcm` draft), with
/// the key chosen from a key set.
enum WebPush {
    static let keyInfoLabel = Array("WebPush: info\0".utf8)

    /// Decrypts an `aes128gcm` body. A 65-byte key id that is a P-256 point is the sender's
    /// public key (RFC 8291); any other key id names a shared `oct` key (plain RFC 8188).
    static func openAES128GCM(_ body: [UInt8], kid: String?, keys: KeySet) throws(DecryptError) -> [UInt8] {
        let header = try ContentEncoding.parseHeader(body)
        if header.keyID.count == 65, header.keyID.first == 0x04 {
            let senderKey = try Primitives.publicKey(header.keyID, what: "the aes128gcm key id (the sender's public key)")
            let candidates = try keys.candidates(kid: kid, what: "a WebPush message (it needs an EC P-256 key with d and auth)") {
                $0.kind == .webPush
            }
            return try firstAuthentic(candidates) { key throws(DecryptError) in
                guard case .ec(let privateKey, let receiverPoint, let auth?) = key.material else { return nil }
                let secret = try Primitives.agree(privateKey, senderKey)
                // RFC 8291 §3.3: IKM = HKDF(auth, ecdh, "WebPush: info" 0x00 || ua_public || as_public, 32)
                let ikm = Primitives.hkdf(
                    salt: auth, ikm: secret, info: keyInfoLabel + receiverPoint + Array(header.keyID), count: 32)
                let (contentKey, nonce) = ContentEncoding.aes128gcmKeys(ikm: ikm, salt: header.salt)
                return try ContentEncoding.openAES128GCM(header.records, recordSize: header.recordSize, key: contentKey, nonce: nonce)
            }
        }
        // A shared key: the message's kid, else the header's key id as text, else every oct key.
        let headerKid = header.keyID.isEmpty ? nil : String(decoding: header.keyID, as: UTF8.self)
        let candidates = try keys.candidates(kid: kid ?? headerKid, what: "an aes128gcm message with a shared key (it needs an oct key)") {
            $0.kind == .symmetric
        }
        return try firstAuthentic(candidates) { key throws(DecryptError) in
            guard let secret = key.symmetricKey else { return nil }
            let (contentKey, nonce) = secret.withUnsafeBytes { ContentEncoding.aes128gcmKeys(ikm: Array($0), salt: header.salt) }
            return try ContentEncoding.openAES128GCM(header.records, recordSize: header.recordSize, key: contentKey, nonce: nonce)
        }
    }

    /// Decrypts a legacy `aesgcm` body with its `Encryption` (salt, rs) and `Crypto-Key` (dh) values.
    static func openAESGCM(
        _ body: [UInt8], salt: [UInt8], senderPoint: [UInt8], recordSize: Int, kid: String?, keys: KeySet
    ) throws(DecryptError) -> [UInt8] {
        guard salt.count == 16 else { throw .malformed("the aesgcm salt must be 16 bytes, not \(salt.count)") }
        let senderKey = try Primitives.publicKey(senderPoint, what: "the aesgcm dh (the sender's public key)")
        let candidates = try keys.candidates(kid: kid, what: "a WebPush message (it needs an EC P-256 key with d and auth)") {
            $0.kind == .webPush
        }
        return try firstAuthentic(candidates) { key throws(DecryptError) in
            guard case .ec(let privateKey, let receiverPoint, let auth?) = key.material else { return nil }
            let secret = try Primitives.agree(privateKey, senderKey)
            let (contentKey, nonce) = ContentEncoding.aesgcmKeys(
                sharedSecret: secret, auth: auth, receiverPoint: receiverPoint, senderPoint: senderPoint, salt: salt)
            return try ContentEncoding.openAESGCM(body, recordSize: recordSize, key: contentKey, nonce: nonce)
        }
    }
}

/// Tries each key in turn: a key that does not authenticate passes to the next; any other
/// failure (bad padding, truncation) is the message's own fault and ends the search.
func firstAuthentic(
    _ keys: [DecryptionKey], _ attempt: (DecryptionKey) throws(DecryptError) -> [UInt8]?
) throws(DecryptError) -> [UInt8] {
    var lastFailure: DecryptError?
    for key in keys {
        do {
            if let plaintext = try attempt(key) { return plaintext }
        } catch where error.code == .authenticationFailed {
            lastFailure = error
        }
    }
    if keys.count > 1, lastFailure != nil {
        throw DecryptError(.authenticationFailed,
            "none of the \(keys.count) candidate keys decrypts the message: it was encrypted for another key, or altered on the way; name the key with a kid, or check the sender's public key")
    }
    throw lastFailure ?? .unknownKey("no key in the key set fits the message")
}
