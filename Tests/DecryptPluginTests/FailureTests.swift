import Crypto
import NSECore
import Testing
@testable import DecryptPlugin

/// Each way a ciphertext can be unusable gives its own code, and no message leaks secrets.
@Suite struct FailureTests {
    let vectors = PeerVectors.shared
    var decryptor: Decryptor { Decryptor(keys: vectors.keys) }

    func code(_ value: JSON) -> DecryptError.Code? {
        decryptError { _ = try decryptor.decrypt(value) }?.code
    }

    func enc(_ name: String) -> JSON { vectors.vector(named: name).payload["enc"]! }

    @Test func theWrongKeyFailsAuthentication() throws {
        let otherKeys = try KeySet(jsonText: Array(KeySetGenerator.keySetText([
            KeySetGenerator.makeWebPushKey(kid: "push-a"), try KeySetGenerator.makeOctKey(kid: "oct-128", bits: 128),
        ]).utf8))
        let other = Decryptor(keys: otherKeys)
        #expect(decryptError { _ = try other.decrypt(enc("aes128gcm http_ece push-a rs=4096 emoji named")) }?.code == .authenticationFailed)
        #expect(decryptError { _ = try other.decrypt(enc("jwe dir A128GCM oct-128 ascii")) }?.code == .authenticationFailed)
        #expect(decryptError { _ = try other.decrypt(enc("aesgcm http_ece push-a rs=4096 ascii members")) }?.code == .authenticationFailed)
    }

    @Test func aMessageForAnotherSubscriptionIsRefusedWhenTheKidNamesIt() {
        var object = enc("aes128gcm http_ece push-a rs=4096 emoji named").objectValue!
        object["kid"] = "push-b"
        #expect(code(.object(object)) == .authenticationFailed)
    }

    @Test func anUnknownKidIsNamed() {
        var object = enc("aes128gcm http_ece push-a rs=4096 emoji named").objectValue!
        object["kid"] = "nobody"
        let error = decryptError { _ = try decryptor.decrypt(.object(object)) }
        #expect(error?.code == .unknownKey)
        #expect(error?.message.contains("\"nobody\"") == true)
        // A key of the wrong kind is no better than none.
        object["kid"] = "oct-256"
        #expect(code(.object(object)) == .unknownKey)
    }

    @Test func truncatedBodiesAreCalledTruncated() {
        let body = b64(enc("aes128gcm http_ece push-b rs=25 json named")["body"]!.stringValue!)
        let headerLength = 21 + 65
        // Cut at a record boundary: the last record left is marked "more follow".
        let cutAtRecord = Array(body.prefix(headerLength + 25 * 2))
        #expect(code(["body": .string(Base64URL.encode(cutAtRecord)), "kid": "push-b"]) == .truncated)
        #expect(code(.string(Base64URL.encode(body.prefix(headerLength)))) == .truncated)
        #expect(code(.string(Base64URL.encode(body.prefix(10)))) == .truncated)
        #expect(code(.string(Base64URL.encode(body.prefix(40)))) == .truncated)
        // Cut inside a record: its tag no longer verifies.
        #expect(code(.string(Base64URL.encode(body.prefix(headerLength + 25 * 2 + 20)))) == .authenticationFailed)

        var legacy = enc("aesgcm http_ece push-a rs=20 emoji members").objectValue!
        let legacyBody = b64(legacy["body"]!.stringValue!)
        legacy["body"] = .string(Base64URL.encode(legacyBody.prefix(36 * 2)))
        #expect(code(.object(legacy)) == .truncated)
        legacy["body"] = .string("")
        #expect(code(.object(legacy)) == .truncated)
    }

    @Test func badDelimitersAndPaddingAreRefused() throws {
        let ikm = Array(repeating: UInt8(7), count: 16)
        let keys = try KeySet(json: ["keys": [["kty": "oct", "kid": "k", "k": .string(Base64URL.encode(ikm))]]])
        let decryptor = Decryptor(keys: keys)
        func attempt(_ records: [[UInt8]], rs: Int = 40) -> DecryptError.Code? {
            let body = sealAES128GCM(records: records, ikm: ikm, recordSize: rs, keyID: Array("k".utf8))
            return decryptError { _ = try decryptor.decrypt(.string(Base64URL.encode(body))) }?.code
        }
        let full = Array(repeating: UInt8(65), count: 23)  // 23 + delimiter + 16 = rs 40
        #expect(attempt([Array("hi".utf8) + [0x02, 0, 0]]) == nil)
        #expect(attempt([full + [0x01], Array("end".utf8) + [0x02]]) == nil)
        #expect(attempt([Array("hi".utf8) + [0x03]]) == .badPadding)
        #expect(attempt([[0, 0, 0]]) == .badPadding)
        #expect(attempt([full + [0x02], Array("end".utf8) + [0x02]]) == .badPadding)
        #expect(attempt([Array("hi".utf8) + [0x01]]) == .truncated)

        var legacy = enc("aesgcm padded rs=24 pad=5 emoji").objectValue!
        legacy["rs"] = 2
        #expect(code(.object(legacy)) == .malformed)
    }

    @Test func legacyPaddingPastTheRecordIsBadPadding() throws {
        // An aesgcm record whose padding length runs past its end, sealed with the real key schedule.
        let vector = enc("aesgcm padded rs=24 pad=5 emoji").objectValue!
        let key = vectors.keys.key(kid: "push-b")!
        guard case .ec(let privateKey, let point, let auth?) = key.material else { Issue.record("not a WebPush key"); return }
        let sender = b64(vector["dh"]!.stringValue!)
        let salt = b64(vector["salt"]!.stringValue!)
        let secret = try Primitives.agree(privateKey, try Primitives.publicKey(sender, what: "dh"))
        let (contentKey, nonce) = ContentEncoding.aesgcmKeys(sharedSecret: secret, auth: auth, receiverPoint: point, senderPoint: sender, salt: salt)
        let box = try AES.GCM.seal([0x00, 0x09, 0, 0, 65], using: contentKey, nonce: AES.GCM.Nonce(data: nonce))
        var object = vector
        object["body"] = .string(Base64URL.encode(Array(box.ciphertext) + Array(box.tag)))
        #expect(code(.object(object)) == .badPadding)
    }

    @Test func unsupportedAlgorithmsAndEncodings() {
        func jwe(_ header: String) -> JSON {
            .string([Base64URL.encode(Array(header.utf8)), "", "AAAAAAAAAAAAAAAA", "AAAA", "AAAAAAAAAAAAAAAAAAAAAA"].joined(separator: "."))
        }
        #expect(code(jwe(#"{"alg":"RSA-OAEP","enc":"A128GCM"}"#)) == .unsupportedAlgorithm)
        #expect(code(jwe(#"{"alg":"dir","enc":"A128CBC-HS256"}"#)) == .unsupportedAlgorithm)
        #expect(code(jwe(#"{"alg":"dir","enc":"A128GCM","zip":"DEF"}"#)) == .compressionUnsupported)
        #expect(code(jwe(#"{"alg":"dir","enc":"A128GCM","crit":["exp"],"exp":1}"#)) == .unsupportedCritical)
        #expect(code(jwe(#"{"alg":"dir","enc":"A128GCM","crit":[]}"#)) == .malformed)
        #expect(code(jwe(#"not json"#)) == .malformed)
        #expect(code(jwe(#"{"enc":"A128GCM"}"#)) == .malformed)
        #expect(code(["scheme": "aes256ccm", "body": "AAAA"]) == .unsupportedAlgorithm)
        #expect(code(.string("a.b.c")) == .malformed)  // not five parts, so not a JWE; and not base64 either
    }

    @Test func malformedValues() {
        #expect(code(.string("not base64 at all!")) == .malformed)
        #expect(code(.string("abc")) == .truncated)  // decodes, but shorter than a header
        #expect(code(12) == .malformed)
        #expect(code(["scheme": "aes128gcm"]) == .malformed)
        #expect(code(["scheme": "aesgcm", "body": "AAAA", "dh": "AAAA"]) == .malformed)
        var legacy = enc("aesgcm http_ece push-a rs=4096 ascii members").objectValue!
        legacy["dh"] = .string(Base64URL.encode(Array(repeating: UInt8(4), count: 65)))
        #expect(code(.object(legacy)) == .malformed)  // not a point on the curve
        var token = enc("jwe ECDH-ES A128GCM ec-1 emoji").stringValue!.split(separator: ".").map(String.init)
        token[2] = "AAAA"
        #expect(code(.string(token.joined(separator: "."))) == .malformed)  // a 3-byte IV
    }

    @Test func messagesNeverCarryKeysCiphertextOrPlaintext() throws {
        var secrets: [String] = []
        for key in vectors.keysJSON["keys"]!.arrayValue! {
            for member in ["d", "k", "auth"] { if let value = key[member]?.stringValue { secrets.append(value) } }
        }
        var errors: [DecryptError] = []
        for vector in vectors.vectors {
            secrets.append(Base64URL.encode(vector.plaintext))
            secrets.append(String(decoding: vector.plaintext, as: UTF8.self))
            // Break each vector three ways and collect the errors.
            var object = vector.payload["enc"]!.objectValue ?? ["body": vector.payload["enc"]!]
            let body = object["body"]!.stringValue!
            secrets.append(body)
            object["body"] = .string(String(body.dropLast(7)))
            if let error = decryptError({ _ = try decryptor.decrypt(.object(object)) }) { errors.append(error) }
            object["kid"] = "missing"
            if let error = decryptError({ _ = try decryptor.decrypt(.object(object)) }) { errors.append(error) }
        }
        #expect(errors.count >= vectors.vectors.count)
        for error in errors {
            for secret in secrets where secret.count >= 8 {
                #expect(!error.description.contains(secret))
            }
        }
    }
}
