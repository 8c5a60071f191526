import NSECore
import Testing

@Suite("Result format")
struct ResultFormatTests {
    @Test("the result has the documented keys, in order")
    func keys() async throws {
        let pipeline = Pipeline(steps: [.init(ClosureModifier("title") { content, context in
            content.title = "New"
            content.attachments.append(Attachment(identifier: "image", file: try context.scratchDirectory() + "/image.jpg", kind: .image, uti: "public.jpeg", mime: "image/jpeg", byteCount: 9059, source: "https://example.com/a.jpg", options: AttachmentOptions(thumbnailHidden: true)))
        })])
        let result = await pipeline.process(try request())
        let json = try JSON(parsing: result.serialized())
        #expect(json.objectValue?.keys == ["id", "outcome", "reason", "content", "attachments", "rejected", "steps", "warnings", "elapsedMs"])
        #expect(json.value(atPath: "attachments.0.type") == "public.jpeg")
        #expect(json.value(atPath: "attachments.0.bytes") == 9059)
        #expect(json.value(atPath: "attachments.0.options.thumbnailHidden") == true)
        #expect(json.value(atPath: "steps.0.name") == "title")
        #expect(json["elapsedMs"]?.numberValue != nil)
        // Pretty output is the same value.
        let pretty = try JSON(parsing: result.serialized(style: .pretty))
        #expect(pretty.value(atPath: "content") == json.value(atPath: "content"))
    }

    @Test("compact results are one line, even for a pretty-printed input")
    func oneLine() async throws {
        let text = "{\n  \"aps\" : {\n    \"alert\" : \"hi\"\n  }\n}\n"
        let result = await Pipeline().process(try request(text))
        let line = result.serialized()
        #expect(!line.contains(0x0A))
        #expect(String(decoding: line, as: UTF8.self).contains(#""content":{"aps":{"alert":"hi"}}"#))
    }
}
