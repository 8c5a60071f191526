import NSECore
import Testing

@testable import MediaPlugin

/// Where URLs are found and how attachments are named, without the network.
@Suite("Finding media in payloads")
struct LocatorTests {
    func locate(_ json: String, keys: [String] = MediaModifier.defaultKeys) throws -> MediaLocator.Found {
        guard case .object(let payload) = try JSON(parsing: json) else { throw CancellationError() }
        return MediaLocator(keys: keys).locate(in: payload)
    }

    @Test func identifiersComeFromTheKeyPath() {
        #expect(MediaLocator.identifier(forKeyPath: "fcm_options.image") == "image")
        #expect(MediaLocator.identifier(forKeyPath: "ab.att.url") == "att")
        #expect(MediaLocator.identifier(forKeyPath: "com.urbanairship.media_attachment") == "media_attachment")
        #expect(MediaLocator.identifier(forKeyPath: "media-url") == "media-url")
        #expect(MediaLocator.identifier(forKeyPath: "url") == "url")
    }

    @Test func theSameURLAtTwoKeysIsKeptOnce() throws {
        let found = try locate(#"{"image":"https://a/x.jpg","fcm_options":{"image":"https://a/x.jpg"},"media-url":"https://a/y.png"}"#)
        #expect(found.references.map(\.url) == ["https://a/y.png", "https://a/x.jpg"])
        #expect(found.references.map(\.keyPath) == ["media-url", "image"])
    }

    @Test func emptyStringsAreNoMediaAndOtherValuesAreWarnings() throws {
        let found = try locate(#"{"image":"","media-url":42,"att":{"id":"https://a/x.jpg","n":1}}"#)
        #expect(found.references.map(\.url) == ["https://a/x.jpg"])
        #expect(found.warnings == [
            "media: media-url holds a number, not a URL; ignored",
            "media: att.n holds a number, not a URL; ignored",
        ])
    }

    @Test func airshipBadOptionsAreWarnedAndIgnored() throws {
        let found = try locate(#"{"com.urbanairship.media_attachment":{"url":"https://a/x.jpg","options":{"crop":{"x":2,"y":0,"width":1,"height":1},"hidden":true}}}"#)
        let reference = try #require(found.references.first)
        #expect(reference.options.thumbnailClippingRect == nil)
        #expect(reference.options.thumbnailHidden == true)
        #expect(found.warnings.count == 1)
        #expect(found.warnings.first?.contains("crop needs x, y, width and height, each from 0 to 1") == true)
    }

    @Test func typeHintsFromExtensionsMIMETypesAndUTIs() {
        #expect(TypeHint.uti(from: "jpg") == "public.jpeg")
        #expect(TypeHint.uti(from: "JPEG") == "public.jpeg")
        #expect(TypeHint.uti(from: "image/png") == "public.png")
        #expect(TypeHint.uti(from: "public.mpeg-4") == "public.mpeg-4")
        #expect(TypeHint.uti(from: "image") == nil)
        #expect(TypeHint.uti(from: "webp") == nil)
    }

    @Test func fileNamesTakeTheURLsExtensionOrBin() {
        #expect(AttachmentNaming.fileName(identifier: "image", url: "https://a.example/p/photo.JPG?w=100#x") == "image.jpg")
        #expect(AttachmentNaming.fileName(identifier: "image", url: "https://a.example/p/200") == "image.bin")
        #expect(AttachmentNaming.fileName(identifier: "image", url: "https://a.example") == "image.bin")
        #expect(AttachmentNaming.fileName(identifier: "image", url: "https://a.example/x.y/z?f=a.png") == "image.bin")
        #expect(AttachmentNaming.fileName(identifier: "../etc/passwd", url: "https://a.example/a.png") == "__etc_passwd.png")
        // Edge cases, read the same whether the URL is ASCII (bytes) or not (Characters).
        for (url, expected) in [
            ("https://a.example/p/clip.Mp4//", "mp4"), ("https://a.example/.webp", "webp"),
            ("https://a.example/a.", nil), ("https://a.example/a.toolong", nil), ("https://a.example/a.j-g", nil),
            ("https://a.example/", nil), ("a.example/p.gif", "gif"), ("https://a.example/p.gif#frag.png", "gif"),
            ("https://a.example/p?x=1/y.png", nil), ("https://é.example/p/photo.PNG", "png"),
            ("https://é.example/p/photo.pñg", nil),
        ] as [(String, String?)] {
            #expect(AttachmentNaming.urlExtension(url) == expected, "\(url)")
        }
    }

    @Test func identifiersAreUniqueAsFileNames() {
        var naming = AttachmentNaming(existing: [Attachment(identifier: "image", file: "/x/image.jpg")])
        #expect(naming.uniqueIdentifier("image") == "image-2")
        #expect(naming.uniqueIdentifier("image") == "image-3")
        #expect(naming.uniqueIdentifier("a b") == "a b")
        #expect(naming.uniqueIdentifier("a_b") == "a_b-2", "a b and a_b would share a file name")
    }
}

@Suite struct LongIdentifierTests {
    @Test func longIdentifiersThatCollideStillGetUniqueNames() {
        var naming = AttachmentNaming(existing: [])
        let long = String(repeating: "a", count: 70)
        var names: Set<String> = []
        // Names that all reduce to the same 64-character file stem.
        for suffix in ["1", "2", "3", "x y", "x_y"] {
            names.insert(safeFileName(naming.uniqueIdentifier(long + suffix)).lowercased())
        }
        #expect(names.count == 5)
        #expect(names.allSatisfy { $0.count <= 64 })
    }
}
