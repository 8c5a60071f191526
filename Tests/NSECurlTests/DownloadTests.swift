import NSECurl
import NSETesting
import Testing

@Suite("Downloads: success, statuses, schemes, redirects")
struct DownloadTests {
    @Test func downloadsToFileWithByteCount() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        let body = TestHTTPServer.pattern(300_000)
        f.server.route("/a.png", .bytes(body, contentType: "image/png"))
        let result = try await f.downloader.download(f.request("/a.png"))
        #expect(result.byteCount == 300_000)
        #expect(result.file == f.scratch.file("out"))
        #expect(fileBytes(result.file) == body)
        #expect(result.contentType == "image/png")
        #expect(result.httpStatus == 200)
        #expect(result.redirectCount == 0)
        #expect(result.effectiveURL == f.server.url("/a.png"))
        #expect(!result.shared)
    }

    @Test func notFoundIsRejectedWithItsStatus() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        let error = await f.failure(f.request("/missing.jpg"))
        #expect(error?.code == .httpStatus)
        #expect(error?.httpStatus == 404)
        #expect(error?.message.contains("404") == true)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test(arguments: ["ftp://127.0.0.1/a.png", "file:///etc/passwd", "gopher://127.0.0.1/"])
    func otherSchemesAreRefused(url: String) async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        let error = await f.failure(f.request(url))
        #expect(error?.code == .unsupportedScheme)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test func malformedURLIsInvalid() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        #expect(await f.failure(f.request("http://"))?.code == .invalidURL)
        #expect(await f.failure(f.request("not a url"))?.code == .invalidURL)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "dict://127.0.0.1/x"])
    func redirectsToOtherSchemesAreRefused(target: String) async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/r", .redirect(to: target))
        let error = await f.failure(f.request("/r"))
        #expect(error?.code == .unsupportedScheme)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test func followsFiveRedirects() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/final.gif", .bytes(TestHTTPServer.pattern(1000), contentType: "image/gif"))
        let first = f.server.redirectChain("/hop", count: 5, to: "/final.gif")
        let result = try await f.downloader.download(f.request(first))
        #expect(result.redirectCount == 5)
        #expect(result.byteCount == 1000)
        #expect(result.effectiveURL == f.server.url("/final.gif"))
    }

    @Test func sixRedirectsAreTooMany() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/final.gif", .bytes(TestHTTPServer.pattern(1000), contentType: "image/gif"))
        let first = f.server.redirectChain("/hop", count: 6, to: "/final.gif")
        #expect(await f.failure(f.request(first))?.code == .tooManyRedirects)
        #expect(f.server.requestCount("/final.gif") == 0)
    }

    @Test func redirectLoopStops() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/loop", .redirect(to: "/loop"))
        let error = await f.failure(f.request("/loop"))
        #expect(error?.code == .tooManyRedirects)
        #expect(f.server.requestCount("/loop") == 6)  // the first request and five redirects
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test func existingDestinationIsNotOverwritten() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/a", .bytes(TestHTTPServer.pattern(10), contentType: "image/png"))
        _ = try await f.downloader.download(f.request("/a", to: "taken"))
        let error = await f.failure(f.request("/a", to: "taken"))
        #expect(error?.code == .io)
        #expect(fileBytes(f.scratch.file("taken")) == TestHTTPServer.pattern(10))
    }

    @Test func gzipIsCountedAsSentNotDecoded() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/bomb.png", .gzipBomb(decodedSize: 10_000_000, contentType: "image/png"))
        // The decoded body would be 10 MB, far over the cap; the wire bytes are not.
        let result = try await f.downloader.download(f.request("/bomb.png", maxBytes: 1_000_000))
        #expect(result.byteCount < 100_000)
        #expect(Array(fileBytes(result.file).prefix(2)) == [0x1f, 0x8b])
    }

    @Test func shutdownFailsLaterDownloads() async throws {
        let f = try await Fixture.make()
        defer { f.server.stop() }
        f.server.route("/a", .bytes([1, 2, 3], contentType: "image/png"))
        f.downloader.shutdown()
        #expect(await f.failure(f.request("/a"))?.code == .cancelled)
        #expect(f.server.requestCount("/a") == 0)
    }
}
