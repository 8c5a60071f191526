import NSECurl
import NSETesting
import Testing

@Suite("Limits inside the transfer")
struct LimitTests {
    @Test func declaredLengthOverCapIsRefusedBeforeTheBody() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        // 50 MB announced, then dripped slowly: only refusing on the header is quick.
        f.server.route("/big.mp4", .drip(total: 50_000_000, chunk: 1000, every: .milliseconds(50), contentType: "video/mp4"))
        let clock = ContinuousClock()
        let started = clock.now
        let error = await f.failure(f.request("/big.mp4", maxBytes: 1_000_000))
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("50000000") == true)
        // Waiting for the body would take over 40 minutes; a generous bound for loaded machines.
        #expect(clock.now - started < .seconds(10))
        #expect(f.server.bodyBytesSent("/big.mp4") < 100_000)
        #expect(!fileExists(f.scratch.file("out")))
        #expect(ScratchDirectory.list(f.downloader.workDirectory).isEmpty)
    }

    @Test(arguments: [true, false])
    func bodyWithoutLengthIsCutPastTheCap(chunked: Bool) async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/endless", .unsized(total: 500_000_000, contentType: "image/jpeg", chunked: chunked))
        let error = await f.failure(f.request("/endless", maxBytes: 1_000_000))
        #expect(error?.code == .tooLarge)
        #expect(!fileExists(f.scratch.file("out")))
        #expect(ScratchDirectory.list(f.downloader.workDirectory).isEmpty)
        // The transfer stopped near the cap, not at the end of the body.
        #expect(f.server.bodyBytesSent("/endless") < 100_000_000)
    }

    @Test func bodyExactlyAtTheCapPasses() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/exact", .unsized(total: 100_000, contentType: "image/jpeg", chunked: true))
        let result = try await f.downloader.download(f.request("/exact", maxBytes: 100_000))
        #expect(result.byteCount == 100_000)
        f.server.route("/over", .unsized(total: 100_001, contentType: "image/jpeg", chunked: true))
        #expect(await f.failure(f.request("/over", to: "over", maxBytes: 100_000))?.code == .tooLarge)
    }

    @Test func lengthDeclaredShortIsTrustedAsFraming() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/short", .lyingLength(body: TestHTTPServer.pattern(5000), declaredLength: 1000, contentType: "image/png"))
        let result = try await f.downloader.download(f.request("/short", maxBytes: 2000))
        #expect(result.byteCount == 1000)
        #expect(fileBytes(result.file) == TestHTTPServer.pattern(1000))
    }

    @Test func lengthDeclaredLongFailsAsTruncated() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/long", .lyingLength(body: TestHTTPServer.pattern(5000), declaredLength: 9000, contentType: "image/png"))
        let error = await f.failure(f.request("/long"))
        #expect(error?.code == .transport)
        #expect(error?.curlCode == 18)  // CURLE_PARTIAL_FILE
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test func hugeDeclaredLengthIsRefused() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/huge", .lyingLength(body: TestHTTPServer.pattern(100), declaredLength: 1 << 50, contentType: "image/png"))
        #expect(await f.failure(f.request("/huge"))?.code == .tooLarge)
    }

    @Test func classifyRejectsAnHTMLPageServedAsAnImage() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        let page = Array("<!DOCTYPE html><html><body>login required</body></html>".utf8) + [UInt8](repeating: 0x20, count: 4000)
        f.server.route("/photo.jpg", .bytes(page, contentType: "image/jpeg"))
        let error = await f.failure(f.request("/photo.jpg", classify: rejectHTML))
        #expect(error?.code == .rejectedContent)
        #expect(error?.message.contains("HTML") == true)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test func classifySeesShortBodiesWhole() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/tiny.jpg", .bytes(Array("<html>no</html>".utf8), contentType: "image/jpeg"))
        #expect(await f.failure(f.request("/tiny.jpg", classify: rejectHTML))?.code == .rejectedContent)
    }

    @Test func classifyLimitCutsTheTransfer() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        // Looks like audio (5 MB kind limit here 50 KB) though the cap would allow 10 MB.
        f.server.route("/song", .unsized(total: 5_000_000, contentType: "audio/mpeg", chunked: true))
        let error = await f.failure(f.request("/song", maxBytes: 10_000_000) { _ in .limit(50_000) })
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("50000") == true)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test func classifyLimitMeetsTheDeclaredLength() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/clip", .bytes(TestHTTPServer.pattern(200_000), contentType: "video/mp4"))
        let error = await f.failure(f.request("/clip") { _ in .limit(100_000) })
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("declares 200000") == true)
    }

    @Test func classifyReceivesTheFirstBytesOnce() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        let body = TestHTTPServer.pattern(100_000)
        f.server.route("/ok", .bytes(body, contentType: "image/png"))
        let seen = Seen()
        let result = try await f.downloader.download(f.request("/ok") { prefix in
            seen.add(prefix)
            return .limit(1_000_000)
        })
        #expect(result.byteCount == 100_000)
        let calls = seen.calls
        #expect(calls.count == 1)
        #expect(calls.first.map { $0.count >= 512 && Array(body.prefix($0.count)) == $0 } == true)
    }

    @Test func bodyDeclaredWithinClassifyAboveIsNotClassified() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/small.png", .bytes(TestHTTPServer.pattern(20_000), contentType: "image/png"))
        let seen = Seen()
        var request = f.request("/small.png") { prefix in
            seen.add(prefix)
            return .reject("not wanted")
        }
        request.classifyAbove = 20_000
        let result = try await f.downloader.download(request)
        #expect(result.byteCount == 20_000)
        #expect(seen.calls.isEmpty)
        #expect(fileBytes(result.file) == TestHTTPServer.pattern(20_000))
    }

    @Test func bodyDeclaredOverClassifyAboveIsClassified() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/large.png", .bytes(TestHTTPServer.pattern(20_001), contentType: "image/png"))
        var request = f.request("/large.png") { _ in .reject("not wanted") }
        request.classifyAbove = 20_000
        #expect(await f.failure(request)?.code == .rejectedContent)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test(arguments: [true, false])
    func bodyOfUnknownSizeIsClassifiedWhateverClassifyAbove(chunked: Bool) async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        // Without Content-Length the size is unknown until the end: the first bytes decide.
        f.server.route("/unsized", .unsized(total: 2000, contentType: "image/jpeg", chunked: chunked))
        var request = f.request("/unsized") { _ in .reject("not wanted") }
        request.classifyAbove = 1_000_000
        #expect(await f.failure(request)?.code == .rejectedContent)
    }

    @Test func contentLengthBesideChunkedEncodingIsNotASize() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        // 100 bytes announced, 40 MB sent in chunks: the length is ignored, so the body is
        // classified as it arrives and cut at the cap, not trusted as small.
        let total = 40_000_000
        f.server.route("/chunked", .unsized(total: total, contentType: "image/jpeg", chunked: true, falseLength: 100))
        let seen = Seen()
        var request = f.request("/chunked", maxBytes: 1_000_000) { prefix in
            seen.add(prefix)
            return .reject("not wanted")
        }
        request.classifyAbove = 1000
        #expect(await f.failure(request)?.code == .rejectedContent)
        #expect(seen.calls.count == 1)
        #expect(f.server.bodyBytesSent("/chunked") < total / 4)
        // Without classify, the cap cuts it while streaming; the false length is never quoted.
        let error = await f.failure(f.request("/chunked", to: "2", maxBytes: 1_000_000))
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("passed") == true, "\(error?.message ?? "")")
        #expect(!fileExists(f.scratch.file("out")) && !fileExists(f.scratch.file("2")))
    }

    @Test func cachedBodyIsClassifiedOnlyForCallersThatAsk() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/shared.png", .bytes(TestHTTPServer.pattern(3000), contentType: "image/png"))
        var first = f.request("/shared.png", to: "1")
        first.classifyAbove = 3000
        _ = try await f.downloader.download(first)
        // Served from the recent-downloads cache: judged by each caller's own threshold.
        let seen = Seen()
        var within = f.request("/shared.png", to: "2") { prefix in
            seen.add(prefix)
            return .reject("not wanted")
        }
        within.classifyAbove = 3000
        #expect(try await f.downloader.download(within).shared)
        #expect(seen.calls.isEmpty)
        var over = within
        over.destination = f.scratch.file("3")
        over.classifyAbove = 2999
        #expect(await f.failure(over)?.code == .rejectedContent)
        #expect(seen.calls.count == 1)
        #expect(f.server.requestCount("/shared.png") == 1)
    }
}

import Synchronization

final class Seen: Sendable {
    private let storage = Mutex<[[UInt8]]>([])
    func add(_ prefix: [UInt8]) { storage.withLock { $0.append(prefix) } }
    var calls: [[UInt8]] { storage.withLock { $0 } }
}
