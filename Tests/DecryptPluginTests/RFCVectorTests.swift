import NSECore
import Testing
@testable import DecryptPlugin

/// The worked examples of RFC 8291 (Appendix A) and RFC 8188 (§3.1, §3.2).
@Suite struct RFCVectorTests {
    // RFC 8291 Appendix A: the user agent's key pair and auth secret, and the message body.
    static let rfc8291Keys: JSON = [
        "keys": [[
            "kty": "EC", "crv": "P-256", "kid": "ua",
            "x": "JXGyvs3942BVGq8e0PTNNmwRzr5VX4m8t7GGpTM5FzE",
            "y": "aOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            "d": "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
            "auth": "BTBZMqHH6r4Tts7J_aSIgg",
        ]],
    ]
    static let rfc8291Body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        + "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
        + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    @Test func rfc8291AppendixA() throws {
        let keys = try KeySet(json: Self.rfc8291Keys)
        // The x/y above are the RFC's ua_public split in two; the key set checks they match d.
        #expect(Base64URL.encode(keys.keys[0].publicPointForTesting) ==
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
        let plaintext = try Decryptor(keys: keys).decrypt(.string(Self.rfc8291Body))
        #expect(String(decoding: plaintext, as: UTF8.self) == "When I grow up, I want to be a watermelon")
    }

    @Test func rfc8291ThroughTheModifier() async throws {
        let keys = try KeySet(json: Self.rfc8291Keys)
        let payload: JSONObject = [
            "aps": ["alert": ["title": "New message", "body": "(encrypted)"], "mutable-content": 1],
            "enc": ["scheme": "aes128gcm", "body": .string(Self.rfc8291Body), "kid": "ua"],
        ]
        var content = NotificationContent(payload: payload)
        let request = NotificationRequest(id: "rfc8291", payload: payload)
        try await DecryptModifier(keys: keys).modify(&content, context: .standalone(request: request))
        #expect(content.body == "When I grow up, I want to be a watermelon")
        #expect(content.title == "New message")
        #expect(content.payload["enc"] == nil)
    }

    @Test func rfc8188Section3_1() throws {
        // One record, rs 4096, no key id: the shared key is found among the oct keys.
        let keys = try KeySet(json: ["keys": [["kty": "oct", "kid": "walrus", "k": "yqdlZ-tYemfogSmv7Ws5PQ"]]])
        let body = "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg"
        #expect(try Decryptor(keys: keys).decrypt(.string(body)) == Array("I am the walrus".utf8))
    }

    @Test func rfc8188Section3_2() throws {
        // Two records of rs 25, the first with one padding byte; the key id "a1" names the key.
        let keys = try KeySet(json: ["keys": [
            ["kty": "oct", "kid": "other", "k": "yqdlZ-tYemfogSmv7Ws5PQ"],
            ["kty": "oct", "kid": "a1", "k": "BO3ZVPxUlnLORbVGMpbT1Q"],
        ]])
        let body = "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA"
        let header = try ContentEncoding.parseHeader(b64(body))
        #expect(header.recordSize == 25)
        #expect(Array(header.keyID) == Array("a1".utf8))
        #expect(try Decryptor(keys: keys).decrypt(.string(body)) == Array("I am the walrus".utf8))
    }
}

extension DecryptionKey {
    var publicPointForTesting: [UInt8] {
        if case .ec(_, let point, _) = material { return point }
        return []
    }
}
