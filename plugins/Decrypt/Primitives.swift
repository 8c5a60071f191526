import Crypto
import Foundation

/// The few primitive operations the schemes share, each mapping failures to `DecryptError`.
enum Primitives {
    /// HMAC-SHA256 (RFC 2104) over the concatenation of `message`, for keys of at most 64 bytes.
    /// Written on `SHA256` because it runs several times per message and `HMAC` prepares its
    /// key pads byte by byte through generic code.
    static func hmacSHA256(key: [UInt8], _ message: [UInt8]...) -> [UInt8] {
        precondition(key.count <= 64)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { pad in
            pad.initialize(repeating: 0)
            for index in key.indices { pad[index] = key[index] }
            for index in 0..<64 { pad[index] ^= 0x36 }
            var inner = SHA256()
            inner.update(bufferPointer: UnsafeRawBufferPointer(pad))
            for part in message { part.withUnsafeBytes { inner.update(bufferPointer: $0) } }
            let innerDigest = inner.finalize()
            for index in 0..<64 { pad[index] ^= 0x36 ^ 0x5C }
            var outer = SHA256()
            outer.update(bufferPointer: UnsafeRawBufferPointer(pad))
            innerDigest.withUnsafeBytes { outer.update(bufferPointer: $0) }
            return outer.finalize().withUnsafeBytes { Array($0) }
        }
    }

    /// HKDF-Extract (RFC 5869 §2.2) with SHA-256.
    static func hkdfExtract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        hmacSHA256(key: salt, ikm)
    }

    /// HKDF-Expand (RFC 5869 §2.3) with SHA-256, for outputs of at most 32 bytes (one block).
    static func hkdfExpand(prk: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        precondition(count <= 32)
        return Array(hmacSHA256(key: prk, info, [0x01]).prefix(count))
    }

    /// HKDF-SHA256 for outputs of at most 32 bytes.
    static func hkdf(salt: [UInt8], ikm: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        hkdfExpand(prk: hkdfExtract(salt: salt, ikm: ikm), info: info, count: count)
    }

    /// A P-256 point from its uncompressed encoding (65 bytes, 0x04 || X || Y), checked to be on the curve.
    static func publicKey(_ point: some ContiguousBytes, what: @autoclosure () -> String) throws(DecryptError) -> P256.KeyAgreement.PublicKey {
        do {
            return try P256.KeyAgreement.PublicKey(x963Representation: point)
        } catch {
            throw .malformed("\(what()) is not an uncompressed P-256 public key (65 bytes starting with 0x04)")
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

    /// AES-GCM decryption of a sealed box.
    static func open(_ box: AES.GCM.SealedBox, key: SymmetricKey, aad: [UInt8], what: @autoclosure () -> String) throws(DecryptError) -> [UInt8] {
        do {
            return Array(try AES.GCM.open(box, using: key, authenticating: aad))
        } catch {
            throw .authenticationFailed(what())
        }
    }

    /// AES-GCM decryption with a 12-byte nonce and a 16-byte tag at the end of `sealed`.
    static func open(
        _ sealed: ArraySlice<UInt8>, key: SymmetricKey, nonce: [UInt8], aad: [UInt8] = [], what: @autoclosure () -> String
    ) throws(DecryptError) -> [UInt8] {
        guard sealed.count >= 16 else { throw .truncated("\(what()) is shorter than its 16-byte tag") }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            return Array(try AES.GCM.open(box, using: key, authenticating: aad))
        } catch {
            throw .authenticationFailed(what())
        }
    }
}
