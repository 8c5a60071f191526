import NSECore
import Testing
@testable import DecryptPlugin

/// Ciphertexts made by http_ece and jwcrypto (Vectors/make-vectors.py), decrypted here.
@Suite struct PeerVectorTests {
    static let names = PeerVectors.shared.vectors.map(\.name)

    @Test func theVectorsCoverEverySchemeAndAlgorithm() {
        let names = Self.names.joined(separator: "\n")
        for needle in ["aes128gcm http_ece", "aes128gcm padded", "aesgcm http_ece", "aesgcm padded",
                       "jwe dir A128GCM", "jwe dir A256GCM", "jwe A256KW A128GCM", "jwe A256KW A256GCM",
                       "jwe ECDH-ES A128GCM", "jwe ECDH-ES A256GCM", "jwe ECDH-ES+A256KW A128GCM", "jwe ECDH-ES+A256KW A256GCM"] {
            #expect(names.contains(needle), "no vector for \(needle)")
        }
    }

    @Test(arguments: names)
    func decryptsToThePeersPlaintext(_ name: String) throws {
        let vectors = PeerVectors.shared
        let vector = vectors.vector(named: name)
        let plaintext = try Decryptor(keys: vectors.keys).decrypt(vector.payload["enc"]!)
        #expect(plaintext == vector.plaintext)
    }

    @Test(arguments: names)
    func theModifierProducesTheExpectedPayload(_ name: String) async throws {
        let vectors = PeerVectors.shared
        let vector = vectors.vector(named: name)
        var content = NotificationContent(payload: vector.payload)
        let request = NotificationRequest(id: name, payload: vector.payload)
        try await DecryptModifier(keys: vectors.keys).modify(&content, context: .standalone(request: request))
        #expect(content.payload == vector.expected)
        #expect(content.payload["enc"] == nil)
    }

    @Test func aJSONPlaintextIsAMergePatch() async throws {
        let vectors = PeerVectors.shared
        let vector = vectors.vector(named: "aes128gcm http_ece push-a rs=4096 json")
        var content = NotificationContent(payload: vector.payload)
        try await DecryptModifier(keys: vectors.keys).modify(&content, context: .standalone(request: NotificationRequest(id: "j", payload: vector.payload)))
        #expect(content.title == "Alice")
        #expect(content.body == "Lunch at 1? 🍜")
        #expect(content.payload["sender"] == "alice@example.com")
        // Untouched keys keep their exact number text and their place.
        #expect(content.payload["id"]?.numberValue?.text == "29273432613945685")
        #expect(content.payload.keys.prefix(2) == ["aps", "id"])
        #expect(content.aps["mutable-content"] == 1)
    }

    @Test func aNullInThePatchRemovesAKey() async throws {
        let vectors = PeerVectors.shared
        let vector = vectors.vector(named: "aes128gcm http_ece push-a rs=4096 json-remove")
        var content = NotificationContent(payload: vector.payload)
        try await DecryptModifier(keys: vectors.keys).modify(&content, context: .standalone(request: NotificationRequest(id: "r", payload: vector.payload)))
        #expect(content.payload["id"] == nil)
        #expect(content.payload["thread"] == "t-42")
        #expect(content.subtitle == "Ünïcödé")
        #expect(content.title == "New message")
    }

    @Test func textPlaintextBecomesTheBody() async throws {
        let vectors = PeerVectors.shared
        let vector = vectors.vector(named: "aes128gcm http_ece push-a rs=18 emoji")
        var content = NotificationContent(payload: vector.payload)
        try await DecryptModifier(keys: vectors.keys).modify(&content, context: .standalone(request: NotificationRequest(id: "e", payload: vector.payload)))
        #expect(content.body == "🎉🔐👩‍👩‍👧 party at 8 🍕")
        #expect(content.title == "New message")
    }
}
