import Crypto
import NSECore
import Testing
@testable import DecryptPlugin

@Suite struct KeySetTests {
    let vectors = PeerVectors.shared

    @Test func readsEveryKindOfKey() throws {
        let keys = vectors.keys
        #expect(keys.keys.count == 5)
        #expect(keys.key(kid: "push-a")?.kind == .webPush)
        #expect(keys.key(kid: "ec-1")?.kind == .ec)
        #expect(keys.key(kid: "oct-128")?.symmetricBits == 128)
        #expect(keys.key(kid: "oct-256")?.kind == .symmetric)
        #expect(keys.key(kid: "none") == nil)
    }

    @Test func keysAreRedactedEverywhere() throws {
        var secrets: [String] = []
        for key in vectors.keysJSON["keys"]!.arrayValue! {
            for member in ["d", "k", "auth"] {
                guard let value = key[member]?.stringValue else { continue }
                secrets.append(value)
                // Also the bytes as they might print in a dump: decimal and hex.
                let bytes = b64(value)
                secrets.append(bytes.prefix(6).map { String($0) }.joined(separator: ", "))
                secrets.append(bytes.prefix(6).map { String($0, radix: 16) }.joined())
            }
        }
        var texts: [String] = ["\(vectors.keys)", String(reflecting: vectors.keys)]
        var dumped = ""
        dump(vectors.keys, to: &dumped)
        texts.append(dumped)
        for key in vectors.keys.keys {
            texts += ["\(key)", String(reflecting: key)]
            var text = ""
            dump(key, to: &text)
            texts.append(text)
        }
        let generated = KeySetGenerator.makeWebPushKey(kid: "g")
        var generatedDump = ""
        dump(generated, to: &generatedDump)
        texts += ["\(generated)", String(reflecting: generated), generatedDump]
        secrets.append(generated.jwk["d"]!.stringValue!)

        #expect(texts.allSatisfy { $0.contains("redacted") })
        #expect(texts.contains { $0.contains("push-a") })
        for text in texts {
            for secret in secrets {
                #expect(!text.contains(secret), "a description shows key material")
            }
        }
    }

    @Test func refusesKeysItCannotUse() {
        func error(_ json: JSON) -> DecryptError? { decryptError { _ = try KeySet(json: json) } }
        let d = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        let cases: [(JSON, String)] = [
            (["keys": [["kty": "EC", "crv": "P-256", "kid": "p", "x": "JXGyvs3942BVGq8e0PTNNmwRzr5VX4m8t7GGpTM5FzE", "y": "aOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"]]], "\"d\""),
            (["keys": [["kty": "EC", "crv": "P-256", "kid": "p", "d": .string(d), "x": "AAAA", "y": "AAAA"]]], "do not match"),
            (["keys": [["kty": "EC", "crv": "P-256", "kid": "p", "d": .string(d), "auth": "AAAA"]]], "16-byte"),
            (["keys": [["kty": "oct", "kid": "a", "k": "AAAAAAAAAAAAAAAAAAAAAA"], ["kty": "oct", "kid": "a", "k": "AAAAAAAAAAAAAAAAAAAAAA"]]], "unique"),
            (["keys": [["kty": "oct", "kid": "a", "k": "AAAA"]]], "bits"),
            (["keys": [["kty": "oct", "kid": "a", "k": "%%%"]]], "base64url"),
            (["keys": [["kty": "RSA", "kid": "r", "n": "AQAB", "e": "AQAB"]]], "no usable key"),
            (["keys": "nope"], "\"keys\""),
            ([1, 2], "JSON object"),
        ]
        for (json, needle) in cases {
            let failure = error(json)
            #expect(failure?.code == .invalidKeySet)
            #expect(failure?.message.contains(needle) == true, "\(failure?.message ?? "no error") lacks \(needle)")
            #expect(failure?.message.contains(d) != true)
        }
        #expect(error(["keys": [["kty": "oct", "kid": "a", "k": "AAAAAAAAAAAAAAAAAAAAAA"]]]) == nil)
    }

    @Test func skipsKeysOfOtherTypesButKeepsTheRest() throws {
        let keys = try KeySet(json: ["keys": [
            ["kty": "RSA", "kid": "r", "n": "AQAB", "e": "AQAB"],
            ["kty": "EC", "crv": "P-384", "kid": "big"],
            ["kty": "oct", "kid": "a", "k": "AAAAAAAAAAAAAAAAAAAAAA"],
        ]])
        #expect(keys.keys.map(\.kid) == ["a"])
        #expect(keys.skipped.count == 2)
        #expect(keys.skipped[0].contains("RSA"))
    }

    @Test func aSingleJWKIsASetOfOne() throws {
        let keys = try KeySet(json: ["kty": "oct", "kid": "solo", "k": "AAAAAAAAAAAAAAAAAAAAAA"])
        #expect(keys.key(kid: "solo") != nil)
    }
}

@Suite struct KeySetGeneratorTests {
    @Test func aWebPushKeyRoundTripsThroughItsPublicParts() throws {
        let generated = KeySetGenerator.makeWebPushKey(kid: "phone")
        let text = KeySetGenerator.keySetText([generated, KeySetGenerator.makeECKey(kid: "ec"), try KeySetGenerator.makeOctKey(kid: "o", bits: 128)])
        let keys = try KeySet(jsonText: Array(text.utf8))
        #expect(keys.keys.map(\.kind) == [.webPush, .ec, .symmetric])

        let parts = generated.publicParts
        #expect(parts["d"] == nil)
        let p256dh = b64(parts["p256dh"]!.stringValue!)
        let auth = b64(parts["auth"]!.stringValue!)
        #expect(p256dh.count == 65 && p256dh[0] == 0x04)
        #expect(auth.count == 16)
        // A sender with only the public parts encrypts; the generated private key decrypts.
        let body = webPushEncrypt(Array("ping 🛎️".utf8), p256dh: p256dh, auth: auth)
        let plaintext = try Decryptor(keys: keys).decrypt(.string(Base64URL.encode(body)))
        #expect(String(decoding: plaintext, as: UTF8.self) == "ping 🛎️")

        // The same public parts come back from the key set text.
        let fromFile = try KeySetGenerator.publicParts(ofKeySet: text)
        #expect(fromFile.arrayValue?[0]["p256dh"] == parts["p256dh"])
        #expect(fromFile.arrayValue?[0]["auth"] == parts["auth"])
        #expect(fromFile.arrayValue?[1]["jwk"]?["d"] == nil)
        #expect(fromFile.arrayValue?[1]["jwk"]?["x"] != nil)
        #expect(fromFile.arrayValue?[2] == ["kid": "o", "type": "symmetric"])
        #expect(!fromFile.serializedText.contains(generated.jwk["d"]!.stringValue!))
    }

    @Test func octKeysHaveTheAskedSize() throws {
        for bits in [128, 192, 256] {
            let key = try KeySetGenerator.makeOctKey(kid: "o", bits: bits)
            #expect(b64(key.jwk["k"]!.stringValue!).count == bits / 8)
            #expect(key.publicParts == ["kid": "o", "type": "symmetric"])
        }
        #expect(throws: DecryptError.self) { try KeySetGenerator.makeOctKey(kid: "o", bits: 100) }
    }

    @Test func anECKeyShowsItsPublicJWK() {
        let key = KeySetGenerator.makeECKey(kid: "e")
        let jwk = key.publicParts["jwk"]?.objectValue
        #expect(jwk?["kty"] == "EC")
        #expect(jwk?["crv"] == "P-256")
        #expect(jwk?["d"] == nil)
        #expect(jwk?["kid"] == "e")
    }
}

extension JSON {
    var serializedText: String { String(decoding: serialized(), as: UTF8.self) }
}
