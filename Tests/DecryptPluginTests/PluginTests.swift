import Foundation
import NSECore
import Testing
@testable import DecryptPlugin

/// The `decrypt` step as a pipeline configuration makes it.
@Suite struct PluginTests {
    let vectors = PeerVectors.shared

    /// A folder with the vectors' key set in it, removed afterwards.
    func withKeyFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decrypt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(JSON.object(vectors.keysJSON.objectValue!).serialized()).write(to: URL(fileURLWithPath: "\(folder)/keys.jwks.json"))
        return try await body(folder)
    }

    func load(_ yaml: String, in folder: String) throws(ConfigurationError) -> Pipeline {
        try PipelineLoader(registry: ModifierRegistry([.decrypt])).load(text: yaml, baseDirectory: folder)
    }

    @Test func decryptsInAPipeline() async throws {
        try await withKeyFolder { folder in
            let pipeline = try load("steps: [ {decrypt: {keys: keys.jwks.json, on-error: original}} ]", in: folder)
            let vector = vectors.vector(named: "jwe ECDH-ES A256GCM push-a json apu/apv")
            let result = await pipeline.process(NotificationRequest(id: "1", payload: vector.payload))
            #expect(result.outcome == .modified)
            #expect(result.content.payload == vector.expected)
            #expect(result.steps.first?.status == .ok)
        }
    }

    @Test func aFailureDeliversTheOriginalWithoutShowingTheCiphertext() async throws {
        try await withKeyFolder { folder in
            let pipeline = try load("steps: [ {decrypt: {keys: keys.jwks.json, on-error: original}} ]", in: folder)
            var payload = vectors.vector(named: "aes128gcm http_ece push-a rs=4096 ascii").payload
            var body = b64(payload["enc"]!.stringValue!)
            body[body.count - 1] ^= 0x55
            payload["enc"] = .string(Base64URL.encode(body))
            let result = await pipeline.process(NotificationRequest(id: "2", payload: payload))
            #expect(result.outcome == .fallback)
            #expect(result.reason == "step-failed:decrypt")
            #expect(result.content.payload == payload)
            #expect(result.content.body == "(encrypted)")
            let error = result.steps.first?.error ?? ""
            #expect(error.contains("authentication-failed"))
            #expect(!error.contains(Base64URL.encode(body).prefix(16)))
        }
    }

    @Test func anAbsentFieldChangesNothing() async throws {
        try await withKeyFolder { folder in
            let pipeline = try load("steps: [ {decrypt: {keys: keys.jwks.json}} ]", in: folder)
            let payload: JSONObject = ["aps": ["alert": ["title": "Hi", "body": "plain"], "mutable-content": 1]]
            let result = await pipeline.process(NotificationRequest(id: "3", payload: payload))
            #expect(result.outcome == .unchanged)
            #expect(result.content.payload == payload)
        }
    }

    @Test func theFieldIsConfigurable() async throws {
        try await withKeyFolder { folder in
            let pipeline = try load("steps: [ {decrypt: {keys: keys.jwks.json, field: secret}} ]", in: folder)
            var payload = vectors.vector(named: "jwe dir A128GCM oct-128 ascii").payload
            payload["secret"] = payload["enc"]
            payload["enc"] = "left alone"
            let result = await pipeline.process(NotificationRequest(id: "4", payload: payload))
            #expect(result.outcome == .modified)
            #expect(result.content.body == "Hello from the relay")
            #expect(result.content.payload["secret"] == nil)
            #expect(result.content.payload["enc"] == "left alone")
        }
    }

    @Test func badOptionsAreErrorsWithTheirPath() async throws {
        try await withKeyFolder { folder in
            func failure(_ yaml: String) -> ConfigurationError? {
                do {
                    _ = try load(yaml, in: folder)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(failure("steps: [ {decrypt: {}} ]")?.message.contains("key set") == true)
            #expect(failure("steps: [ decrypt ]") != nil)
            #expect(failure("steps: [ {decrypt: {keys: missing.json}} ]")?.path == "steps[0].decrypt.keys")
            #expect(failure("steps: [ {decrypt: {keys: keys.jwks.json, colour: red}} ]")?.path == "steps[0].decrypt.colour")
            #expect(failure("steps: [ {decrypt: {keys: keys.jwks.json, field: ''}} ]")?.path == "steps[0].decrypt.field")
            try Data("{\"keys\": []}".utf8).write(to: URL(fileURLWithPath: "\(folder)/empty.json"))
            let empty = failure("steps: [ {decrypt: {keys: empty.json}} ]")
            #expect(empty?.path == "steps[0].decrypt.keys")
            #expect(empty?.message.contains("no usable key") == true)
        }
    }

    @Test func theSamplesDecryptWithTheSampleKeys() async throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples").standardized.path
        let pipeline = try PipelineLoader(registry: ModifierRegistry([.decrypt])).load(file: "\(samples)/decrypt.yaml")
        for name in ["encrypted-webpush.apns", "encrypted-jwe.apns"] {
            let text = try Data(contentsOf: URL(fileURLWithPath: "\(samples)/\(name)"))
            let request = try NotificationRequest(id: name, json: Array(text))
            #expect(request.payload["enc"] != nil)
            let result = await pipeline.process(request)
            #expect(result.outcome == .modified, "\(name)")
            #expect(result.content.body != "(encrypted)", "\(name)")
            #expect(result.content.payload["enc"] == nil)
        }
    }
}
