import Foundation
import NSECore
import Testing
@testable import RewritePlugin

/// The files in Samples/ work as the docs say.
@Suite struct SamplesTests {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples").path

    func process(_ payloadFile: String, with pipelineFile: String) async throws -> NotificationResult {
        let pipeline = try PipelineLoader(registry: ModifierRegistry([.rewrite]))
            .load(file: "\(Self.samples)/\(pipelineFile)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(Self.samples)/\(payloadFile)"))
        return await pipeline.process(try NotificationRequest(id: payloadFile, json: bytes))
    }

    @Test func localizedPayloadInFrenchCanadian() async throws {
        let result = try await process("localized.apns", with: "rewrite.yaml")
        #expect(result.content.title == "Nouvelle invitation")
        #expect(result.content.subtitle == "Organisé par Jenna")
        #expect(result.content.body == "Frank et Jenna vous invitent à jouer au Monopoly")
        #expect(result.content.locKey == nil && result.content.titleLocKey == nil && result.content.subtitleLocKey == nil)
    }

    @Test func templatedPayload() async throws {
        let result = try await process("rewrite.apns", with: "rewrite.yaml")
        #expect(result.content.title == "New message · Anna <Nan> O'Hara")
        #expect(result.content.subtitle == "Friday dinner (3 unread)")
        let body = try #require(result.content.body)
        #expect(body.count == 80)
        #expect(body.hasSuffix("…"))
        #expect(result.content.payload["_j_msgid"] == .number(JSONNumber(29273432613945685)))
    }

    @Test func catalogInTraditionalChinese() async throws {
        let result = try await process("localized.apns", with: "rewrite-catalog.yaml")
        #expect(result.content.body == "Jenna 和 Frank 邀請你玩地產大亨")
        // No Chinese title in the catalog: the source language's text, as Xcode compiles it.
        #expect(result.content.title == "New invitation")
        // GAME_HOST_FORMAT is not in the catalog: iOS shows the key.
        #expect(result.content.subtitle == "GAME_HOST_FORMAT")
        #expect(result.warnings.contains { $0.contains("GAME_HOST_FORMAT") })
    }
}
