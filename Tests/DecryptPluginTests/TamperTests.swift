import NSECore
import Testing
@testable import DecryptPlugin

/// Every single altered byte of a ciphertext must be refused, never decrypted to something else.
@Suite struct TamperTests {
    static let limit = 1500

    @Test(arguments: [
        "aes128gcm http_ece push-b rs=25 json named",
        "aes128gcm padded rs=30 pad=12 emoji",
        "aes128gcm http_ece push-a rs=4096 ascii",
    ])
    func everyAlteredByteOfAnAES128GCMBodyIsRefused(_ name: String) async throws {
        let vectors = PeerVectors.shared
        let enc = vectors.vector(named: name).payload["enc"]!
        let kid = enc["kid"]
        let body = b64(enc.stringValue ?? enc["body"]!.stringValue!)
        let decryptor = Decryptor(keys: vectors.keys)
        let original = try decryptor.decrypt(envelope(body, kid: kid))
        var accepted: [Int] = []
        for position in body.indices.prefix(Self.limit) {
            // Thousands of decryptions: let the tests running beside this one have a thread.
            await Task.yield()
            for mask: UInt8 in [0x01, 0x80] {
                var altered = body
                altered[position] ^= mask
                guard let plaintext = try? decryptor.decrypt(envelope(altered, kid: kid)) else { continue }
                // RFC 8188 does not authenticate rs: a larger rs that splits the body the same
                // way yields the same records. Anything else accepted would be a forgery.
                #expect(plaintext == original)
                accepted.append(position)
            }
        }
        #expect(accepted.allSatisfy { (16..<20).contains($0) }, "altered bytes accepted at \(accepted)")
    }

    @Test func everyAlteredByteOfAnAESGCMBodyIsRefused() async throws {
        let vectors = PeerVectors.shared
        let enc = vectors.vector(named: "aesgcm http_ece push-a rs=20 emoji members").payload["enc"]!.objectValue!
        let body = b64(enc["body"]!.stringValue!)
        let decryptor = Decryptor(keys: vectors.keys)
        var accepted: [Int] = []
        for position in body.indices.prefix(Self.limit) {
            // Thousands of decryptions: let the tests running beside this one have a thread.
            await Task.yield()
            var altered = body
            altered[position] ^= 0x80
            var object = enc
            object["body"] = .string(Base64URL.encode(altered))
            if (try? decryptor.decrypt(.object(object))) != nil { accepted.append(position) }
        }
        #expect(accepted.isEmpty, "altered bytes accepted at \(accepted)")
        for member in ["salt", "dh"] {
            var object = enc
            var bytes = b64(enc[member]!.stringValue!)
            bytes[bytes.count / 2] ^= 0x01
            object[member] = .string(Base64URL.encode(bytes))
            #expect(throws: DecryptError.self) { try decryptor.decrypt(.object(object)) }
        }
    }

    @Test(arguments: ["jwe dir A128GCM oct-128 ascii", "jwe ECDH-ES+A256KW A256GCM push-b long apu/apv", "jwe A256KW A256GCM oct-256 multibyte"])
    func everyAlteredByteOfAJWEIsRefused(_ name: String) async throws {
        let vectors = PeerVectors.shared
        let token = vectors.vector(named: name).payload["enc"]!.stringValue!
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map { b64(String($0)) }
        let decryptor = Decryptor(keys: vectors.keys)
        var accepted: [String] = []
        var tried = 0
        for part in parts.indices {
            for position in parts[part].indices where tried < Self.limit {
                await Task.yield()
                tried += 1
                var altered = parts
                altered[part][position] ^= 0x01
                let text = altered.map { Base64URL.encode($0) }.joined(separator: ".")
                if (try? decryptor.decrypt(.string(text))) != nil { accepted.append("part \(part) byte \(position)") }
            }
        }
        #expect(tried == min(parts.map(\.count).reduce(0, +), Self.limit))
        #expect(accepted.isEmpty, "altered bytes accepted: \(accepted)")
    }

    private func envelope(_ body: [UInt8], kid: JSON?) -> JSON {
        guard let kid else { return .string(Base64URL.encode(body)) }
        return ["scheme": "aes128gcm", "body": .string(Base64URL.encode(body)), "kid": kid]
    }
}
