import Crypto
import Foundation
import NSECore

/// The private keys the plugin decrypts with, read from a JWK Set (RFC 7517).
///
/// Supported members: `oct` keys (`k`), and `EC` keys on `P-256` with their private `d`; an EC
/// key with an extra `auth` member (the 16-byte WebPush auth secret, base64url) is a WebPush
/// subscription key. Keys of other types (RSA, OKP, …) are skipped and reported in `skipped`.
/// Like `DecryptionKey`, a key set's descriptions never show key material.
public struct KeySet: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every usable key, in file order.
    public let keys: [DecryptionKey]
    /// Why some entries of the file were not used (e.g. `keys[2]: kty "RSA" is not supported`).
    public let skipped: [String]

    private let byKid: [String: Int]
    let webPushKeys: [DecryptionKey]

    /// A key set from keys already made.
    public init(keys: [DecryptionKey]) throws(DecryptError) {
        try self.init(keys: keys, skipped: [])
    }

    private init(keys: [DecryptionKey], skipped: [String]) throws(DecryptError) {
        var byKid: [String: Int] = [:]
        for (index, key) in keys.enumerated() {
            guard let kid = key.kid else { continue }
            if byKid[kid] != nil {
                throw DecryptError(.invalidKeySet, "two keys have the kid \"\(kid)\"; every kid must be unique")
            }
            byKid[kid] = index
        }
        self.keys = keys
        self.skipped = skipped
        self.byKid = byKid
        self.webPushKeys = keys.filter { $0.kind == .webPush }
    }

    /// Reads a JWK Set file (or a file holding one JWK).
    public init(contentsOfFile path: String) throws(DecryptError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw DecryptError(.invalidKeySet, "cannot read the key set file \(path): \(error.localizedDescription)")
        }
        try self.init(jsonText: Array(data))
    }

    /// Reads a JWK Set from its JSON text.
    public init(jsonText: some Collection<UInt8>) throws(DecryptError) {
        let json: JSON
        do {
            json = try JSON(parsing: jsonText)
        } catch {
            // The parse error's position is safe; its message might quote text, so it is not used.
            throw DecryptError(.invalidKeySet, "the key set is not valid JSON (line \(error.line), column \(error.column)); expected a JWK Set {\"keys\": [ … ]}")
        }
        try self.init(json: json)
    }

    /// Reads a JWK Set (`{"keys": [...]}`) or a single JWK.
    public init(json: JSON) throws(DecryptError) {
        guard let object = json.objectValue else {
            throw DecryptError(.invalidKeySet, "the key set must be a JSON object {\"keys\": [ … ]}")
        }
        let entries: [JSON]
        if object["kty"] != nil {
            entries = [json]
        } else if let list = object["keys"]?.arrayValue {
            entries = list
        } else {
            throw DecryptError(.invalidKeySet, "the key set has no \"keys\" list; expected a JWK Set {\"keys\": [ … ]}")
        }
        var keys: [DecryptionKey] = []
        var skipped: [String] = []
        for (index, entry) in entries.enumerated() {
            if let key = try JWKReader.read(entry, at: "keys[\(index)]", skipped: &skipped) {
                keys.append(key)
            }
        }
        guard !keys.isEmpty else {
            throw DecryptError(.invalidKeySet, "the key set holds no usable key (oct, or EC P-256 with d)" + (skipped.isEmpty ? "" : "; skipped: " + skipped.joined(separator: "; ")))
        }
        try self.init(keys: keys, skipped: skipped)
    }

    /// The key with this `kid`.
    public func key(kid: String) -> DecryptionKey? {
        byKid[kid].map { keys[$0] }
    }

    /// The one key named by `kid`, or every key `fits` accepts when there is no kid.
    func candidates(kid: String?, what: @autoclosure () -> String, fits: (DecryptionKey) -> Bool) throws(DecryptError) -> [DecryptionKey] {
        if let kid {
            guard let key = key(kid: kid) else {
                throw .unknownKey("no key with kid \"\(kid)\" in the key set; add it to the keys file, or check the kid the sender uses")
            }
            guard fits(key) else {
                throw .unknownKey("key \"\(kid)\" is a \(key.kind.rawValue) key\(key.symmetricBits.map { " of \($0) bits" } ?? ""), which cannot decrypt \(what())")
            }
            return [key]
        }
        let found = keys.filter(fits)
        guard !found.isEmpty else {
            throw .unknownKey("the key set has no key that can decrypt \(what()); add one to the keys file")
        }
        return found
    }

    /// The kids only; key material is `<redacted>`.
    public var description: String {
        "KeySet(\(keys.count) keys: \(keys.map { $0.kid ?? "-" }.joined(separator: ", ")), <redacted>)"
    }

    /// The same as `description`: redacted.
    public var debugDescription: String { description }

    /// Shows the keys through their own redacted mirrors.
    public var customMirror: Mirror {
        Mirror(self, children: ["keys": keys, "skipped": skipped], displayStyle: .struct)
    }
}

/// Turns one JWK into a `DecryptionKey`; errors name the entry and the member, never its value.
enum JWKReader {
    static func read(_ json: JSON, at location: String, skipped: inout [String]) throws(DecryptError) -> DecryptionKey? {
        guard let jwk = json.objectValue else {
            throw DecryptError(.invalidKeySet, "\(location) is not a JWK object")
        }
        let kid = jwk["kid"]?.stringValue
        let name = kid.map { "\(location) (kid \"\($0)\")" } ?? location
        func member(_ key: String) throws(DecryptError) -> [UInt8]? {
            guard let value = jwk[key] else { return nil }
            guard let text = value.stringValue, let bytes = try? Base64URL.decode(text, what: key) else {
                throw DecryptError(.invalidKeySet, "\(name): \"\(key)\" is not a base64url string")
            }
            return bytes
        }
        switch jwk["kty"]?.stringValue {
        case "oct":
            guard let k = try member("k"), !k.isEmpty else {
                throw DecryptError(.invalidKeySet, "\(name): an oct key needs its key bytes in \"k\"")
            }
            guard [16, 24, 32].contains(k.count) else {
                throw DecryptError(.invalidKeySet, "\(name): an oct key must be 128, 192 or 256 bits, not \(k.count * 8)")
            }
            return DecryptionKey(kid: kid, material: .symmetric(SymmetricKey(data: k)))
        case "EC":
            guard jwk["crv"]?.stringValue == "P-256" else {
                skipped.append("\(name): curve \(jwk["crv"]?.stringValue ?? "(none)") is not supported; use P-256")
                return nil
            }
            guard let d = try member("d") else {
                throw DecryptError(.invalidKeySet, "\(name): an EC key needs its private part \"d\" to decrypt")
            }
            let privateKey: P256.KeyAgreement.PrivateKey
            do {
                privateKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: d)
            } catch {
                throw DecryptError(.invalidKeySet, "\(name): \"d\" is not a valid P-256 private key")
            }
            let point = Array(privateKey.publicKey.x963Representation)
            if let x = try member("x"), let y = try member("y"), [0x04] + x + y != point {
                throw DecryptError(.invalidKeySet, "\(name): \"x\"/\"y\" do not match \"d\"; the key is corrupted")
            }
            let auth = try member("auth")
            if let auth, auth.count != 16 {
                throw DecryptError(.invalidKeySet, "\(name): \"auth\" must be the 16-byte WebPush auth secret, not \(auth.count) bytes")
            }
            return DecryptionKey(kid: kid, material: .ec(privateKey, publicPoint: point, auth: auth))
        case let other:
            skipped.append("\(name): kty \(other.map { "\"\($0)\"" } ?? "(none)") is not supported; use oct or EC")
            return nil
        }
    }
}
