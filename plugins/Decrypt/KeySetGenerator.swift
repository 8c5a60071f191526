import Crypto
import NSECore

/// A freshly generated private key as a JWK, with the public parts a push provider needs.
/// Its descriptions are redacted; write `jwk` to the key file and nowhere else.
public struct GeneratedKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's `kid`.
    public let kid: String
    /// What it decrypts.
    public let kind: DecryptionKey.Kind
    /// The private JWK (with `d` or `k`): secret.
    public let jwk: JSONObject

    /// What the sender needs, and nothing secret beyond what it must hold:
    /// - WebPush: `{"kid", "type": "webpush", "p256dh", "auth"}` — the subscription's keys
    ///   (`p256dh` is the uncompressed point, base64url; `auth` is shared with the sender by design);
    /// - EC: `{"kid", "type": "ec", "jwk": {public JWK}}` — for ECDH-ES JWE;
    /// - oct: `{"kid", "type": "oct"}` — the key itself travels out of band.
    public var publicParts: JSONObject {
        var parts: JSONObject = ["kid": .string(kid), "type": .string(kind.rawValue)]
        switch kind {
        case .webPush:
            if let x = jwk["x"]?.stringValue, let y = jwk["y"]?.stringValue,
               let xb = try? Base64URL.decode(x, what: "x"), let yb = try? Base64URL.decode(y, what: "y") {
                parts["p256dh"] = .string(Base64URL.encode([0x04] + xb + yb))
            }
            parts["auth"] = jwk["auth"]
        case .ec:
            parts["jwk"] = .object(JSONObject(members: jwk.members.filter { ["kty", "crv", "x", "y", "kid", "use"].contains($0.key) }))
        case .symmetric:
            break
        }
        return parts
    }

    /// Kind and kid only; the JWK is `<redacted>`.
    public var description: String { "GeneratedKey(\(kind.rawValue), kid: \"\(kid)\", <redacted>)" }
    /// The same as `description`: redacted.
    public var debugDescription: String { description }
    /// Hides the JWK from `dump` and reflection.
    public var customMirror: Mirror {
        Mirror(self, children: ["kid": kid, "kind": kind, "jwk": "<redacted>"], displayStyle: .struct)
    }
}

/// Makes key sets for `nse keys`: private JWK Sets for the plugin, public parts for senders.
public enum KeySetGenerator {
    /// A WebPush subscription key: EC P-256 with `d`, plus a random 16-byte `auth` secret.
    public static func makeWebPushKey(kid: String) -> GeneratedKey {
        var jwk = ecJWK(kid: kid)
        jwk["auth"] = .string(Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }))
        return GeneratedKey(kid: kid, kind: .webPush, jwk: jwk)
    }

    /// An EC P-256 key for `ECDH-ES` and `ECDH-ES+A256KW` JWE.
    public static func makeECKey(kid: String) -> GeneratedKey {
        GeneratedKey(kid: kid, kind: .ec, jwk: ecJWK(kid: kid))
    }

    /// A symmetric key for JWE `dir` (128 bits for A128GCM, 256 for A256GCM) and `A256KW` (256).
    public static func makeOctKey(kid: String, bits: Int = 256) throws(DecryptError) -> GeneratedKey {
        guard [128, 192, 256].contains(bits) else {
            throw DecryptError(.invalidKeySet, "an oct key must be 128, 192 or 256 bits, not \(bits)")
        }
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: bits))
        let jwk: JSONObject = [
            "kty": "oct", "kid": .string(kid),
            "k": .string(Base64URL.encode(key.withUnsafeBytes { Array($0) })),
        ]
        return GeneratedKey(kid: kid, kind: .symmetric, jwk: jwk)
    }

    /// The JWK Set text (`{"keys": [...]}`, pretty-printed) holding the keys' private parts.
    public static func keySetText(_ keys: [GeneratedKey]) -> String {
        let set: JSON = ["keys": .array(keys.map { .object($0.jwk) })]
        return String(decoding: set.serialized(style: .pretty), as: UTF8.self)
    }

    /// The public parts of every key of a JWK Set text (see `GeneratedKey.publicParts`), as a
    /// JSON array, e.g. to print the `p256dh` and `auth` of an existing key file.
    public static func publicParts(ofKeySet text: String) throws(DecryptError) -> JSON {
        let set = try KeySet(jsonText: Array(text.utf8))
        return .array(set.keys.map { key in
            var parts: JSONObject = ["kid": key.kid.map(JSON.string) ?? .null, "type": .string(key.kind.rawValue)]
            if case .ec(let privateKey, let point, let auth) = key.material {
                if let auth {
                    parts["p256dh"] = .string(Base64URL.encode(point))
                    parts["auth"] = .string(Base64URL.encode(auth))
                } else {
                    parts["jwk"] = .object(publicJWK(privateKey.publicKey, kid: key.kid))
                }
            }
            return .object(parts)
        })
    }

    private static func ecJWK(kid: String) -> JSONObject {
        let key = P256.KeyAgreement.PrivateKey()
        var jwk = publicJWK(key.publicKey, kid: kid)
        jwk["d"] = .string(Base64URL.encode(key.rawRepresentation))
        return jwk
    }

    private static func publicJWK(_ key: P256.KeyAgreement.PublicKey, kid: String?) -> JSONObject {
        let raw = Array(key.rawRepresentation)  // X || Y
        var jwk: JSONObject = ["kty": "EC", "crv": "P-256"]
        if let kid { jwk["kid"] = .string(kid) }
        jwk["x"] = .string(Base64URL.encode(raw[0..<32]))
        jwk["y"] = .string(Base64URL.encode(raw[32..<64]))
        return jwk
    }
}
