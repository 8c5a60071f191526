import Crypto
import Foundation

/// The few primitive operations the schemes share, each mapping failures to `DecryptError`.
enum Primitives {
    /// HKDF-SHA256 (RFC 5869) for outputs of at most 32 bytes: one expand block.
    static func hkdf(salt: some ContiguousBytes, ikm: some DataProtocol, info: some DataProtocol, count: Int) -> [UInt8] {
        precondition(count <= 32)
        let prk = HMAC<SHA256>.authenticationCode(for: ikm, using: SymmetricKey(data: salt))
        var expand = HMAC<SHA256>(key: SymmetricKey(data: prk))
        expand.update(data: info)
        expand.update(data: [0x01])
        return Array(expand.finalize().prefix(count))
    }

    /// A P-256 point from its uncompressed encoding (65 bytes, 0x04 || X || Y), checked to be on the curve.
    static func publicKey(_ point: some ContiguousBytes, what: String) throws(DecryptError) -> P256.KeyAgreement.PublicKey {
        do {
            return try P256.KeyAgreement.PublicKey(x963Representation: point)
        } catch {
            throw .malformed("\(what) is not an uncompressed P-256 public key (65 bytes starting with 0x04)")
        }
    }

    /// The ECDH shared secret (the X coordinate, 32 bytes).
    static func agree(_ privateKey: P256.KeyAgreement.PrivateKey, _ publicKey: P256.KeyAgreement.PublicKey) throws(DecryptError) -> [UInt8] {
        do {
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
            return secret.withUnsafeBytes { Array($0) }
        } catch {
            throw .malformed("the sender's public key cannot be used for key agreement")
        }
    }

    /// AES-GCM decryption with a 12-byte nonce and a 16-byte tag at the end of `sealed`.
    static func open(
        _ sealed: ArraySlice<UInt8>, key: SymmetricKey, nonce: [UInt8], aad: [UInt8] = [], what: String
    ) throws(DecryptError) -> [UInt8] {
        guard sealed.count >= 16 else { throw .truncated("\(what) is shorter than its 16-byte tag") }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            return Array(try AES.GCM.open(box, using: key, authenticating: aad))
        } catch {
            throw .authenticationFailed(what)
        }
    }
}
