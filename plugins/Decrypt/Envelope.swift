import NSECore

/// Where a ciphertext lives in the payload and how it is encoded, read from the field's value.
enum Envelope {
    /// A JWE compact token, as UTF-8 bytes.
    case jwe([UInt8], kid: String?)
    /// An RFC 8291/8188 `aes128gcm` body (header included).
    case aes128gcm(body: [UInt8], kid: String?)
    /// A legacy `aesgcm` body with its header values.
    case aesgcm(body: [UInt8], salt: [UInt8], dh: [UInt8], recordSize: Int, kid: String?)

    /// The schemes an object envelope may name.
    static let schemes = ["aes128gcm", "aesgcm", "jwe"]

    /// Reads `"enc": "<JWE>"`, `"enc": "<base64url aes128gcm>"`, or an object with `scheme`,
    /// `body`, `kid` and, for `aesgcm`, `salt`, `dh`, `rs` (or the raw `encryption` and
    /// `crypto-key` header values).
    init(_ value: JSON, field: String) throws(DecryptError) {
        switch value {
        case .string(let text):
            let bytes = Array(text.utf8)
            if JWE.looksCompact(bytes) {
                self = .jwe(bytes, kid: nil)
            } else {
                self = .aes128gcm(body: try Base64URL.decode(bytes: bytes[...], what: "\"\(field)\" (an aes128gcm body)"), kid: nil)
            }
        case .object(let object):
            self = try Self.read(object, field: field)
        default:
            throw .malformed("\"\(field)\" is \(value.typeDescription); expected a JWE token, a base64url aes128gcm body, or an object with scheme and body")
        }
    }

    private static func read(_ object: JSONObject, field: String) throws(DecryptError) -> Envelope {
        func string(_ key: String) throws(DecryptError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let text = value.stringValue else { throw .malformed("\"\(field).\(key)\" must be a string, not \(value.typeDescription)") }
            return text
        }
        let kid = try string("kid")
        guard let body = try string("body") else {
            throw .malformed("\"\(field)\" has no \"body\"; put the base64url ciphertext there")
        }
        let encryption = try string("encryption").map(HeaderParameters.init)
        let cryptoKey = try string("crypto-key").map(HeaderParameters.init)
        let legacyHint = object["salt"] != nil || object["dh"] != nil || encryption != nil || cryptoKey != nil
        let scheme = try string("scheme") ?? (JWE.looksCompact(Array(body.utf8)) ? "jwe" : legacyHint ? "aesgcm" : "aes128gcm")
        switch scheme {
        case "jwe":
            return .jwe(Array(body.utf8), kid: kid)
        case "aes128gcm":
            return .aes128gcm(body: try Base64URL.decode(body, what: "\"\(field).body\""), kid: kid)
        case "aesgcm":
            guard let salt = try string("salt") ?? encryption?["salt"] else {
                throw .malformed("an aesgcm \"\(field)\" needs \"salt\" (from the Encryption header)")
            }
            guard let dh = try string("dh") ?? cryptoKey?["dh"] else {
                throw .malformed("an aesgcm \"\(field)\" needs \"dh\" (the sender's key from the Crypto-Key header)")
            }
            var recordSize = 4096
            if let rs = object["rs"], !rs.isNull {
                guard let size = rs.numberValue?.intValue ?? rs.stringValue.flatMap({ Int($0) }) else {
                    throw .malformed("\"\(field).rs\" must be a whole number")
                }
                recordSize = size
            } else if let rs = encryption?["rs"] {
                guard let size = Int(rs) else { throw .malformed("the rs in \"\(field).encryption\" must be a whole number") }
                recordSize = size
            }
            return .aesgcm(
                body: try Base64URL.decode(body, what: "\"\(field).body\""),
                salt: try Base64URL.decode(salt, what: "\"\(field).salt\""),
                dh: try Base64URL.decode(dh, what: "\"\(field).dh\""),
                recordSize: recordSize, kid: kid)
        default:
            throw .unsupported("\"\(field).scheme\" is \"\(scheme)\"; known schemes: \(schemes.joined(separator: ", "))")
        }
    }
}

/// The `name=value` pairs of an `Encryption` or `Crypto-Key` header value
/// (`keyid=p256dh;dh=BNoR…`); the first occurrence of a name wins.
struct HeaderParameters {
    private var values: [String: String] = [:]

    init(_ text: String) {
        for item in text.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if values[name] == nil { values[name] = value }
        }
    }

    subscript(name: String) -> String? { values[name] }
}
