import Foundation
import Crypto
import NSECore

/// JWE compact serialization (RFC 7516) with the algorithms of RFC 7518 that suit push:
/// `alg` `dir`, `A256KW`, `ECDH-ES`, `ECDH-ES+A256KW`; `enc` `A128GCM`, `A256GCM`.
enum JWE {
    /// Header parameters this implementation reads; `crit` may name none of them (RFC 7516 §4.1.13)
    /// and names no extension it understands, so any `crit` entry is refused.
    static let understoodCritical: Set<String> = []

    /// True for five dot-separated parts: the only shape of a JWE compact token.
    static func looksCompact(_ text: [UInt8]) -> Bool {
        dotPositions(text, limit: 5).count == 4
    }

    /// The offsets of the first `limit` dots (memchr: a 4 KB token is scanned in a blink).
    static func dotPositions(_ text: [UInt8], limit: Int) -> [Int] {
        text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            var positions: [Int] = []
            var offset = 0
            while positions.count < limit, offset < buffer.count,
                  let found = memchr(base + offset, Int32(UInt8(ascii: ".")), buffer.count - offset) {
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                positions.append(position)
                offset = position + 1
            }
            return positions
        }
    }

    /// Decrypts a JWE compact token given as its UTF-8 bytes.
    static func open(_ token: [UInt8], kid messageKid: String? = nil, keys: KeySet) throws(DecryptError) -> [UInt8] {
        var parts: [ArraySlice<UInt8>] = []
        var start = 0
        for dot in dotPositions(token, limit: 5) {
            parts.append(token[start..<dot])
            start = dot + 1
        }
        parts.append(token[start...])
        guard parts.count == 5 else {
            throw .malformed("a JWE compact token has five dot-separated parts, this one has \(parts.count)")
        }
        let protectedB64 = Array(parts[0])
        let header = try readHeader(protectedB64)
        guard header["zip"] == nil else {
            throw DecryptError(.compressionUnsupported, "the JWE is compressed (zip); compressed plaintexts are refused, send it without zip")
        }
        try checkCritical(header)
        guard let alg = header["alg"]?.stringValue else { throw .malformed("the JWE header has no \"alg\"") }
        guard let enc = header["enc"]?.stringValue else { throw .malformed("the JWE header has no \"enc\"") }
        let keyBytes: Int
        switch enc {
        case "A128GCM": keyBytes = 16
        case "A256GCM": keyBytes = 32
        default: throw .unsupported("JWE enc \"\(enc)\" is not supported; use A128GCM or A256GCM")
        }
        let encryptedKey = try decode(parts[1], what: "the JWE encrypted key")
        let sealed = try sealedBox(token, iv: parts[2], ciphertext: parts[3], tag: parts[4])
        let kid = header["kid"]?.stringValue ?? messageKid

        let decryptContent = { (cek: SymmetricKey) throws(DecryptError) -> [UInt8] in
            guard cek.bitCount == keyBytes * 8 else {
                throw .malformed("the JWE content key is \(cek.bitCount) bits; \(enc) needs \(keyBytes * 8)")
            }
            return try Primitives.open(sealed, key: cek, aad: protectedB64, what: "the JWE")
        }

        switch alg {
        case "dir":
            guard encryptedKey.isEmpty else { throw .malformed("a JWE with alg dir must have an empty encrypted key") }
            let candidates = try keys.candidates(kid: kid, what: "a JWE dir \(enc) (it needs a \(keyBytes * 8)-bit oct key)") {
                $0.symmetricBits == keyBytes * 8
            }
            return try firstAuthentic(candidates) { key throws(DecryptError) in try key.symmetricKey.map(decryptContent) }
        case "A256KW":
            let candidates = try keys.candidates(kid: kid, what: "a JWE A256KW (it needs a 256-bit oct key)") {
                $0.symmetricBits == 256
            }
            return try firstAuthentic(candidates) { key throws(DecryptError) in
                guard let kek = key.symmetricKey else { return nil }
                return try decryptContent(unwrap(encryptedKey, kek: kek))
            }
        case "ECDH-ES", "ECDH-ES+A256KW":
            let direct = alg == "ECDH-ES"
            if direct, !encryptedKey.isEmpty { throw .malformed("a JWE with alg ECDH-ES must have an empty encrypted key") }
            let epk = try ephemeralKey(header)
            let apu = try header["apu"].map { v throws(DecryptError) in try decodeMember(v, "apu") } ?? []
            let apv = try header["apv"].map { v throws(DecryptError) in try decodeMember(v, "apv") } ?? []
            let candidates = try keys.candidates(kid: kid, what: "a JWE \(alg) (it needs an EC P-256 key with d)") {
                $0.agreementKey != nil
            }
            return try firstAuthentic(candidates) { key throws(DecryptError) in
                guard let privateKey = key.agreementKey else { return nil }
                let z = try Primitives.agree(privateKey, epk)
                let derived = ConcatKDF.derive(
                    z: z, algorithmID: direct ? enc : alg, partyU: apu, partyV: apv, bits: direct ? keyBytes * 8 : 256)
                let cek = direct ? SymmetricKey(data: derived) : try unwrap(encryptedKey, kek: SymmetricKey(data: derived))
                return try decryptContent(cek)
            }
        default:
            throw .unsupported("JWE alg \"\(alg)\" is not supported; use dir, A256KW, ECDH-ES or ECDH-ES+A256KW")
        }
    }

    /// Decodes IV, ciphertext and tag straight into one buffer laid out as AES-GCM's combined
    /// form (nonce ‖ ciphertext ‖ tag), saving the copies of decoding them apart.
    private static func sealedBox(
        _ token: [UInt8], iv: ArraySlice<UInt8>, ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>
    ) throws(DecryptError) -> AES.GCM.SealedBox {
        let ivName = "the JWE initialization vector", ciphertextName = "the JWE ciphertext", tagName = "the JWE authentication tag"
        let result: Result<Data, DecryptError> = token.withUnsafeBufferPointer { buffer in
            let ivInput = UnsafeBufferPointer(rebasing: buffer[iv.startIndex..<iv.endIndex])
            let ciphertextInput = UnsafeBufferPointer(rebasing: buffer[ciphertext.startIndex..<ciphertext.endIndex])
            let tagInput = UnsafeBufferPointer(rebasing: buffer[tag.startIndex..<tag.endIndex])
            guard let ivCount = Base64URL.decodedCount(ivInput) else { return .failure(Base64URL.notBase64(ivName)) }
            guard let ciphertextCount = Base64URL.decodedCount(ciphertextInput) else { return .failure(Base64URL.notBase64(ciphertextName)) }
            guard let tagCount = Base64URL.decodedCount(tagInput) else { return .failure(Base64URL.notBase64(tagName)) }
            guard ivCount == 12 else {
                return .failure(.malformed("the JWE initialization vector must be 12 bytes for AES-GCM, not \(ivCount)"))
            }
            guard tagCount == 16 else {
                return .failure(.truncated("the JWE authentication tag must be 16 bytes, not \(tagCount)"))
            }
            var combined = Data(count: 12 + ciphertextCount + 16)
            let failed: String? = combined.withUnsafeMutableBytes { raw in
                let output = raw.bindMemory(to: UInt8.self)
                let end = 12 + ciphertextCount
                if !Base64URL.decode(ivInput, into: UnsafeMutableBufferPointer(rebasing: output[0..<12])) { return ivName }
                if !Base64URL.decode(ciphertextInput, into: UnsafeMutableBufferPointer(rebasing: output[12..<end])) { return ciphertextName }
                if !Base64URL.decode(tagInput, into: UnsafeMutableBufferPointer(rebasing: output[end...])) { return tagName }
                return nil
            }
            if let failed { return .failure(Base64URL.notBase64(failed)) }
            return .success(combined)
        }
        do {
            return try AES.GCM.SealedBox(combined: try result.get())
        } catch let error as DecryptError {
            throw error
        } catch {
            throw .malformed("the JWE initialization vector, ciphertext and tag do not form an AES-GCM message")
        }
    }

    private static func readHeader(_ b64: [UInt8]) throws(DecryptError) -> JSONObject {
        let bytes = try Base64URL.decode(bytes: b64[...], what: "the JWE protected header")
        guard let json = try? JSON(parsing: bytes), let object = json.objectValue else {
            throw .malformed("the JWE protected header is not a JSON object")
        }
        return object
    }

    private static func checkCritical(_ header: JSONObject) throws(DecryptError) {
        guard let crit = header["crit"] else { return }
        guard let names = crit.arrayValue, !names.isEmpty, names.allSatisfy({ $0.stringValue != nil }) else {
            throw .malformed("the JWE \"crit\" must be a non-empty list of header names")
        }
        for name in names.compactMap(\.stringValue) where !understoodCritical.contains(name) {
            throw DecryptError(.unsupportedCritical, "the JWE marks \"\(name)\" critical, which this plugin does not understand; send it without that extension")
        }
    }

    private static func ephemeralKey(_ header: JSONObject) throws(DecryptError) -> P256.KeyAgreement.PublicKey {
        guard let epk = header["epk"]?.objectValue else { throw .malformed("an ECDH-ES JWE needs the sender's ephemeral key \"epk\"") }
        guard epk["kty"]?.stringValue == "EC", epk["crv"]?.stringValue == "P-256" else {
            throw .unsupported("the JWE epk must be an EC P-256 key")
        }
        guard let x = try epk["x"].map({ v throws(DecryptError) in try decodeMember(v, "epk.x") }),
              let y = try epk["y"].map({ v throws(DecryptError) in try decodeMember(v, "epk.y") }),
              x.count == 32, y.count == 32
        else { throw .malformed("the JWE epk needs 32-byte \"x\" and \"y\"") }
        return try Primitives.publicKey([0x04] + x + y, what: "the JWE epk")
    }

    private static func unwrap(_ wrapped: [UInt8], kek: SymmetricKey) throws(DecryptError) -> SymmetricKey {
        guard wrapped.count >= 24, wrapped.count % 8 == 0 else {
            throw .malformed("the JWE encrypted key must be a multiple of 8 bytes and at least 24 for AES key wrap")
        }
        do {
            return try AES.KeyWrap.unwrap(wrapped, using: kek)
        } catch {
            throw .authenticationFailed("the JWE encrypted key (AES key wrap)")
        }
    }

    private static func decode(_ part: ArraySlice<UInt8>, what: @autoclosure () -> String) throws(DecryptError) -> [UInt8] {
        try Base64URL.decode(bytes: part, what: what())
    }

    private static func decodeMember(_ value: JSON, _ name: String) throws(DecryptError) -> [UInt8] {
        guard let text = value.stringValue else { throw .malformed("the JWE header member \"\(name)\" must be a base64url string") }
        return try Base64URL.decode(text, what: "the JWE header member \"\(name)\"")
    }
}

/// The Concat KDF of NIST SP 800-56A as JWA uses it (RFC 7518 §4.6.2), for up to 256 bits.
enum ConcatKDF {
    static func derive(z: [UInt8], algorithmID: String, partyU: [UInt8], partyV: [UInt8], bits: Int) -> [UInt8] {
        precondition(bits <= 256)
        func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] { bigEndian32(bytes.count) + bytes }
        var hash = SHA256()
        hash.update(data: bigEndian32(1))
        hash.update(data: z)
        hash.update(data: lengthPrefixed(Array(algorithmID.utf8)))
        hash.update(data: lengthPrefixed(partyU))
        hash.update(data: lengthPrefixed(partyV))
        hash.update(data: bigEndian32(bits))
        return Array(hash.finalize().prefix(bits / 8))
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
