import Foundation
import NSECore
import NSETesting
import Testing

/// Every misbehaving server ends in a clear rejection, and the notification still goes out.
@Suite("Misbehaving servers")
struct MisbehavingServerTests {
    /// Runs one payload whose `image` is `path` on `server` through a media pipeline.
    /// With `refusedFileStays`, the body was downloaded whole and refused by the validation
    /// stage, which leaves the file it refused in the notification's directory (and nowhere else).
    func run(
        _ path: String, on server: TestHTTPServer, root: ScratchRoot, extraConfig: String = "",
        refusedFileStays: Bool = false
    ) async throws -> NotificationResult {
        let pipeline = try root.pipeline("network: { allow-private: true }\n\(extraConfig)steps: [media]\n")
        let request = try notification(#""image":\#(quoted(server.url(path)))"#)
        let result = await pipeline.process(request)
        // Delivered without the attachment, and nothing left behind.
        #expect(result.outcome == .unchanged)
        #expect(result.content.payload == request.payload)
        #expect(result.attachments.isEmpty)
        #expect(result.rejected.count == 1)
        #expect(result.rejected.first?.source == server.url(path))
        #expect(result.rejected.first?.identifier == "image")
        if refusedFileStays {
            let files = root.files()
            #expect(files.count == 1 && files.allSatisfy { $0.hasPrefix(request.id + "-") && $0.hasSuffix("/image.jpg") }, "\(files)")
        } else {
            expectOnlyAttachments(result, under: root)
        }
        return result
    }

    @Test func notFoundIsRejected() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let result = try await run("/missing.jpg", on: server, root: try ScratchRoot())
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .downloadFailed)
        #expect(rejection.detail.contains("404"), "\(rejection.detail)")
    }

    @Test func htmlErrorPageServedAsJPEGIsRejected() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let page = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media("error-page.html"))))
        server.route("/photo.jpg", .bytes(page, contentType: "image/jpeg"))
        // Within every kind's limit: downloaded whole, then refused by its bytes.
        let result = try await run("/photo.jpg", on: server, root: try ScratchRoot(), refusedFileStays: true)
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .unrecognizedType)
        #expect(rejection.detail.contains("HTML"), "\(rejection.detail)")
        #expect(rejection.detail.contains("not an attachment type iOS accepts"))
        #expect(rejection.detail.contains("Check that \(server.url("/photo.jpg")) points at the media file itself."), "\(rejection.detail)")
    }

    @Test("a body larger than the smallest limit and of no accepted type is stopped after its first bytes")
    func largeHTMLIsStoppedEarly() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let page = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media("error-page.html"))))
        let total = 40_000_000  // over audio's 5 MB: the first bytes are judged as they arrive
        server.route("/page.jpg", .bytes(page + [UInt8](repeating: 0x20, count: total - page.count), contentType: "image/jpeg"))
        let root = try ScratchRoot()
        let result = try await run("/page.jpg", on: server, root: root)
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .unrecognizedType)
        #expect(rejection.detail.contains("was refused"), "\(rejection.detail)")
        #expect(rejection.detail.contains("HTML"), "\(rejection.detail)")
        let sent = server.bodyBytesSent("/page.jpg")
        #expect(sent < total / 4, "the transfer was not stopped early: \(sent) bytes sent")
        expectOnlyAttachments(result, under: root)
    }

    @Test func pngServedFromMP4IsAcceptedAsPNG() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        server.route("/photo.mp4", .file(path: Fixtures.media("picture.png"), contentType: "video/mp4"))
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let result = await pipeline.process(try notification(#""image":\#(quoted(server.url("/photo.mp4")))"#))

        #expect(result.outcome == .modified)
        #expect(result.rejected.isEmpty)
        let attachment = try #require(result.attachments.first)
        #expect(attachment.uti == "public.png")
        #expect(attachment.mime == "image/png")
        #expect(attachment.file.hasSuffix("/image.png"))
        // The Content-Type and the URL's extension disagree with the bytes: warnings, not reasons.
        #expect(result.warnings.contains { $0.contains("declared as video/mp4, the bytes are image/png") }, "\(result.warnings)")
        #expect(result.warnings.contains { $0.contains("the file name says .mp4") }, "\(result.warnings)")
        expectOnlyAttachments(result, under: root)
    }

    @Test("an image over its limit without Content-Length is cut at limit + 1 byte")
    func imageOverLimitIsCut() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media("picture.jpg"))))
        let total = 40_000_000
        server.route("/huge.jpg", .unsized(total: total, contentType: "image/jpeg", chunked: true, prefix: jpeg))
        let result = try await run("/huge.jpg", on: server, root: try ScratchRoot(), extraConfig: "limits: { image: 1MB }\n")
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .invalidFileSize)
        #expect(rejection.detail.contains("the limit of the kind its first bytes show (1000000 bytes)"), "\(rejection.detail)")
        let sent = server.bodyBytesSent("/huge.jpg")
        print("image over a 1 MB limit: the server sent \(sent) of \(total) bytes")
        #expect(sent < total / 4, "the transfer was not cut early: \(sent) bytes sent")
    }

    @Test("an image whose Content-Length is over its limit is refused after its first bytes")
    func declaredTooLarge() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media("picture.jpg"))))
        server.route("/big.jpg", .bytes(jpeg + [UInt8](repeating: 0, count: 2_000_000), contentType: "image/jpeg"))
        let result = try await run("/big.jpg", on: server, root: try ScratchRoot(), extraConfig: "limits: { image: 1MB }\n")
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .invalidFileSize)
        #expect(rejection.detail.contains("(Content-Length)"), "\(rejection.detail)")
    }

    @Test func lyingContentLengthIsRejected() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media("picture.png"))))
        server.route("/short.png", .lyingLength(body: png, declaredLength: 5000, contentType: "image/png"))
        let result = try await run("/short.png", on: server, root: try ScratchRoot())
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .downloadFailed)
        #expect(!rejection.detail.isEmpty)
    }

    @Test func tooManyRedirectsAreRejected() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let first = server.redirectChain("/hop", count: 6, to: "/picture.jpg")
        let result = try await run(first, on: server, root: try ScratchRoot())
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .downloadFailed)
        #expect(rejection.detail.contains("redirected more than 5 times"), "\(rejection.detail)")
    }

    @Test func redirectToAnotherSchemeIsAnInvalidURL() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        server.route("/to-ftp", .redirect(to: "ftp://127.0.0.1/picture.jpg"))
        let result = try await run("/to-ftp", on: server, root: try ScratchRoot())
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .invalidURL)
        #expect(rejection.detail.contains("http or https"), "\(rejection.detail)")
    }

    @Test func gzipBombIsRefusedByItsBytes() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        server.route("/bomb.jpg", .gzipBomb(decodedSize: 10_000_000, contentType: "image/jpeg"))
        let result = try await run("/bomb.jpg", on: server, root: try ScratchRoot(), refusedFileStays: true)
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .unrecognizedType)
        #expect(rejection.detail.lowercased().contains("gzip"), "\(rejection.detail)")
    }

    @Test func emptyBodyIsAnInvalidFileSize() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        server.route("/empty.jpg", .bytes([], contentType: "image/jpeg"))
        let result = try await run("/empty.jpg", on: server, root: try ScratchRoot())
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .invalidFileSize)
        #expect(rejection.detail.contains("empty"), "\(rejection.detail)")
    }

    @Test("URLs that cannot be fetched are invalid-url; the others still download")
    func invalidURLs() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let request = try notification(#""image":["not a url","ftp://example.com/a.jpg",\#(quoted(server.url("/picture.jpg")))]"#)
        let result = await pipeline.process(request)
        #expect(result.outcome == .modified)
        #expect(result.rejected.map(\.reason) == [.invalidURL, .invalidURL])
        #expect(result.rejected.map(\.identifier) == ["image", "image-2"])
        #expect(result.rejected[1].detail.contains("only http and https"), "\(result.rejected[1].detail)")
        #expect(result.attachments.map(\.identifier) == ["image-3"])
        expectOnlyAttachments(result, under: root)
    }
}
