import Foundation
import NSECore
import NSETesting
import Testing

/// Payloads in each SDK's format get their attachments, accepted by the real validator.
@Suite("Vendor payload formats")
struct VendorFormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var vendor: String
        /// Payload members; `URL(name)` stands for the test server's URL of a fixture.
        var members: @Sendable (_ url: (String) -> String) -> String
        /// Identifier and UTI of each expected attachment, in order.
        var expected: [(identifier: String, uti: String, fixture: String)]
        var testDescription: String { vendor }
    }

    static let cases: [Case] = [
        Case(vendor: "media-url", members: { #""media-url":\#(quoted($0("picture.jpg")))"# },
             expected: [("media-url", "public.jpeg", "picture.jpg")]),
        Case(vendor: "attachment-url", members: { #""attachment-url":\#(quoted($0("picture.png")))"# },
             expected: [("attachment-url", "public.png", "picture.png")]),
        Case(vendor: "image", members: { #""image":\#(quoted($0("picture.gif")))"# },
             expected: [("image", "com.compuserve.gif", "picture.gif")]),
        Case(vendor: "Firebase fcm_options.image", members: { #""fcm_options":{"image":\#(quoted($0("picture.jpg")))}"# },
             expected: [("image", "public.jpeg", "picture.jpg")]),
        Case(vendor: "OneSignal att.id", members: { #""att":{"id":\#(quoted($0("picture.png")))}"# },
             expected: [("id", "public.png", "picture.png")]),
        Case(vendor: "OneSignal att as a string", members: { #""att":\#(quoted($0("clip.mp4")))"# },
             expected: [("att", "public.mpeg-4", "clip.mp4")]),
        Case(vendor: "Airship url string",
             members: { #""com.urbanairship.media_attachment":{"url":\#(quoted($0("picture.jpg")))}"# },
             expected: [("media_attachment", "public.jpeg", "picture.jpg")]),
        Case(vendor: "Airship url list",
             members: { #""com.urbanairship.media_attachment":{"url":[\#(quoted($0("picture.jpg"))),\#(quoted($0("tone.mp3")))]}"# },
             expected: [("media_attachment", "public.jpeg", "picture.jpg"), ("media_attachment-2", "public.mp3", "tone.mp3")]),
        Case(vendor: "Airship urls objects",
             members: { #""com.urbanairship.media_attachment":{"urls":[{"url":\#(quoted($0("picture.png"))),"url_id":"cover"},\#(quoted($0("clip.mp4")))]}"# },
             expected: [("cover", "public.png", "picture.png"), ("media_attachment", "public.mpeg-4", "clip.mp4")]),
        Case(vendor: "Braze ab.att.url", members: { #""ab":{"att":{"url":\#(quoted($0("picture.jpg"))),"type":"jpg"}}"# },
             expected: [("att", "public.jpeg", "picture.jpg")]),
        Case(vendor: "CleverTap ct_mediaUrl", members: { #""ct_mediaUrl":\#(quoted($0("picture.gif"))),"ct_mediaType":"gif""# },
             expected: [("ct_mediaUrl", "com.compuserve.gif", "picture.gif")]),
        Case(vendor: "Pushwoosh attachment", members: { #""attachment":\#(quoted($0("tone.m4a")))"# },
             expected: [("attachment", "public.mpeg-4-audio", "tone.m4a")]),
        Case(vendor: "Iterable itbl.attachment-url", members: { #""itbl":{"attachment-url":\#(quoted($0("picture.png")))}"# },
             expected: [("attachment-url", "public.png", "picture.png")]),
        Case(vendor: "Customer.io CIO.push.image", members: { #""CIO":{"push":{"image":\#(quoted($0("picture.jpg")))}}"# },
             expected: [("image", "public.jpeg", "picture.jpg")]),
    ]

    @Test(arguments: cases)
    func vendorPayloadGetsItsAttachments(_ vendor: Case) async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        #expect(root.files().isEmpty)
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let request = try notification(vendor.members { server.url("/" + $0) })

        let result = await pipeline.process(request)

        #expect(result.outcome == .modified)
        #expect(result.rejected.isEmpty, "\(result.rejected)")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.attachments.map(\.identifier) == vendor.expected.map(\.identifier))
        #expect(result.attachments.map(\.uti) == vendor.expected.map(\.uti))
        for (attachment, expected) in zip(result.attachments, vendor.expected) {
            #expect(attachment.byteCount == (try fixtureSize(expected.fixture)))
            #expect(attachment.source == server.url("/" + expected.fixture))
            let type = try #require(AttachmentRules.type(uti: expected.uti))
            #expect(attachment.file.hasSuffix("/\(safeFileName(expected.identifier)).\(type.fileExtension)"))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: attachment.file))
            #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: Fixtures.media(expected.fixture)))))
        }
        // The payload is left as it came: the URL keys stay.
        #expect(result.content.payload == request.payload)
        expectOnlyAttachments(result, under: root)
    }

    @Test("Airship options become attachment options; thumbnail_id hides the others")
    func airshipOptions() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let request = try notification(#"""
            "com.urbanairship.media_attachment":{
              "urls":[{"url":\#(quoted(server.url("/picture.jpg"))),"url_id":"a"},{"url":\#(quoted(server.url("/clip.mp4"))),"url_id":"b"}],
              "options":{"crop":{"x":0.1,"y":0.2,"width":0.5,"height":0.75},"time":2.5},
              "thumbnail_id":"b"}
            """#)

        let result = await pipeline.process(request)

        #expect(result.attachments.map(\.identifier) == ["a", "b"])
        let rect = AttachmentOptions.ClippingRect(x: 0.1, y: 0.2, width: 0.5, height: 0.75)
        #expect(result.attachments.map(\.options.thumbnailClippingRect) == [rect, rect])
        #expect(result.attachments.map(\.options.thumbnailTime) == [2.5, 2.5])
        #expect(result.attachments.map(\.options.thumbnailHidden) == [true, false])
    }

    @Test("Braze's type becomes a type hint; a wrong hint is replaced with a warning")
    func brazeTypeHint() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let right = await pipeline.process(try notification(#""ab":{"att":{"url":\#(quoted(server.url("/picture.jpg"))),"type":"jpg"}}"#))
        #expect(right.attachments.first?.options.typeHint == "public.jpeg")
        #expect(right.warnings.isEmpty)

        let wrong = await pipeline.process(try notification(#""ab":{"att":{"url":\#(quoted(server.url("/picture.png"))),"type":"gif"}}"#, id: "n2"))
        #expect(wrong.attachments.first?.options.typeHint == "public.png")
        #expect(wrong.warnings.contains { $0.contains("type hint com.compuserve.gif disagrees with the bytes (public.png)") })
    }

    @Test("keys replaces the defaults; several URLs download at once, at most max-attachments")
    func configuredKeysAndLimitOnCount() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("""
            network: { allow-private: true }
            steps:
              - media: { keys: [gallery, image], max-attachments: 3 }
            """)
        let gallery = ["picture.jpg", "picture.png", "picture.gif", "clip.mp4"].map { quoted(server.url("/" + $0)) }
        let request = try notification(#""gallery":[\#(gallery.joined(separator: ","))],"image":\#(gallery[0]),"media-url":\#(quoted(server.url("/tone.mp3")))"#)

        let result = await pipeline.process(request)

        #expect(result.attachments.map(\.identifier) == ["gallery", "gallery-2", "gallery-3"])
        #expect(result.attachments.map(\.uti) == ["public.jpeg", "public.png", "com.compuserve.gif"])
        #expect(result.warnings == ["media: 4 media URLs found, only the first 3 are downloaded (max-attachments)"])
        #expect(server.requestCount("/tone.mp3") == 0, "media-url is not among the configured keys")
        #expect(server.requestCount("/clip.mp4") == 0)
    }
}
