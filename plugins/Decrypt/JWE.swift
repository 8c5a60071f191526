import Crypto
import NSECore

/// JWE compact serialization (RFC 7516) with the algorithms of RFC 7518 that suit push:
/// `alg` `dir`, `A256KW`, `ECDH-ES`, `ECDH-ES+A256KW`; `enc` `A128GCM`, `A256GCM`.
enum JWE {
    /// Header parameters this implementation reads; `crit` may name none of them (RFC 7516 §4.1.13)
    /// and names no extension it understands, so any `crit` entry is refused.
    static let understoodCritical: Set<String> = []

    static func looksCompact(_ text: String) -> Bool {
        text.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 4
    }

    static func open(_ token: String, kid messageKid: String? = nil, keys: KeySet) throws(DecryptError) -> [UInt8] {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
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
        let iv = try decode(parts[2], what: "the JWE initialization vector")
        let ciphertext = try decode(parts[3], what: "the JWE ciphertext")
        let tag = try decode(parts[4], what: "the JWE authentication tag")
        guard iv.count == 12 else { throw .malformed("the JWE initialization vector must be 12 bytes for AES-GCM, not \(iv.count)") }
        guard tag.count == 16 else { throw .truncated("the JWE authentication tag must be 16 bytes, not \(tag.count)") }
        let kid = header["kid"]?.stringValue ?? messageKid

        let decryptContent = { (cek: SymmetricKey) throws(DecryptError) -> [UInt8] in
            guard cek.bitCount == keyBytes * 8 else {
                throw .malformed("the JWE content key is \(cek.bitCount) bits; \(enc) needs \(keyBytes * 8)")
            }
            return try Primitives.open(ArraySlice(ciphertext + tag), key: cek, nonce: iv, aad: protectedB64, what: "the JWE")
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

    private static func readHeader(_ b64: [UInt8]) throws(DecryptError) -> JSONObject {
        let bytes = try decode(b64[...], what: "the JWE protected header")
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

    private static func decode(_ part: some Collection<UInt8>, what: String) throws(DecryptError) -> [UInt8] {
        try Base64URL.decode(String(decoding: part, as: UTF8.self), what: what)
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
