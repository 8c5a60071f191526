import NSECurl
import NSETesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Shared transfers, cache and concurrency")
struct SharingTests {
    @Test func concurrentRequestsForOneURLFetchItOnce() async throws {
        let f = try await Fixture.make(.init(allowPrivateAddresses: true, cache: .disabled))
        defer { f.finish() }
        // Slow enough (about half a second) that every caller joins while it runs.
        f.server.route("/shared.jpg", .drip(total: 80_000, chunk: 8000, every: .milliseconds(50), contentType: "image/jpeg"))
        let results = try await withThrowingTaskGroup(of: DownloadResult.self) { group in
            for i in 0..<10 {
                let request = f.request("/shared.jpg", to: "copy-\(i)")
                group.addTask { try await f.downloader.download(request) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(f.server.requestCount("/shared.jpg") == 1)
        #expect(results.count == 10)
        for result in results {
            #expect(result.byteCount == 80_000)
            #expect(result.shared)
            #expect(fileBytes(result.file) == TestHTTPServer.pattern(80_000))
        }
    }

    @Test func eachCallerKeepsItsOwnLimitInASharedTransfer() async throws {
        let f = try await Fixture.make(.init(allowPrivateAddresses: true, cache: .disabled))
        defer { f.finish() }
        f.server.route("/v", .drip(total: 80_000, chunk: 8000, every: .milliseconds(50), contentType: "video/mp4", declaredLength: nil))
        async let small = f.failure(f.request("/v", to: "small", maxBytes: 20_000))
        async let large = f.failure(f.request("/v", to: "large", maxBytes: 1_000_000))
        let (smallError, largeError) = await (small, large)
        #expect(smallError?.code == .tooLarge)
        #expect(largeError == nil)
        #expect(fileBytes(f.scratch.file("large")).count == 80_000)
        #expect(!fileExists(f.scratch.file("small")))
    }

    @Test func aRecentBodyIsDeliveredWithoutWaitingAndNothingElseIs() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/r.png", .bytes(TestHTTPServer.pattern(20_000), contentType: "image/png"))
        #expect(try f.downloader.downloadIfRecent(f.request("/r.png", to: "early")) == nil)
        #expect(!fileExists(f.scratch.file("early")))
        _ = try await f.downloader.download(f.request("/r.png", to: "1"))
        let recent = try #require(try f.downloader.downloadIfRecent(f.request("/r.png", to: "2")))
        #expect(recent.shared)
        #expect(fileBytes(f.scratch.file("2")) == TestHTTPServer.pattern(20_000))
        // Still judged by this caller's limits.
        #expect(throws: DownloadError.self) { try f.downloader.downloadIfRecent(f.request("/r.png", to: "3", maxBytes: 1_000)) }
        #expect(!fileExists(f.scratch.file("3")))
        #expect(f.server.requestCount("/r.png") == 1)
    }

    @Test func recentDownloadsAreServedFromTheCache() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/c.png", .bytes(TestHTTPServer.pattern(50_000), contentType: "image/png"))
        let first = try await f.downloader.download(f.request("/c.png", to: "1"))
        let second = try await f.downloader.download(f.request("/c.png", to: "2"))
        #expect(f.server.requestCount("/c.png") == 1)
        #expect(!first.shared)
        #expect(second.shared)
        #expect(second.contentType == "image/png")
        #expect(fileBytes(f.scratch.file("2")) == TestHTTPServer.pattern(50_000))
        // The cached body is still judged by the new caller's limits.
        #expect(await f.failure(f.request("/c.png", to: "3", maxBytes: 10_000))?.code == .tooLarge)
        #expect(await f.failure(f.request("/c.png", to: "4", classify: { _ in .reject("not wanted") }))?.code == .rejectedContent)
        #expect(f.server.requestCount("/c.png") == 1)
    }

    @Test func cachedBodyIsNotHandedToACancelledOrLateCaller() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/c.jpg", .bytes(TestHTTPServer.pattern(20_000), contentType: "image/jpeg"))
        _ = try await f.downloader.download(f.request("/c.jpg", to: "first"))
        let cancelledRequest = f.request("/c.jpg", to: "cancelled")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await f.failure(cancelledRequest)
        }
        #expect(await task.value?.code == .cancelled)
        #expect(await f.failure(f.request("/c.jpg", to: "late", within: .zero))?.code == .timedOut)
        #expect(!fileExists(f.scratch.file("cancelled")))
        #expect(!fileExists(f.scratch.file("late")))
        // A cached body is read-only, linked into place, and the same bytes.
        let cached = try await f.downloader.download(f.request("/c.jpg", to: "cached"))
        #expect(cached.shared)
        #expect(fileBytes(cached.file) == TestHTTPServer.pattern(20_000))
        var status = stat()
        #expect(stat(cached.file, &status) == 0 && status.st_mode & 0o222 == 0)
        #expect(f.server.requestCount("/c.jpg") == 1)
    }

    @Test func cacheIsBoundedInBytes() async throws {
        let f = try await Fixture.make(.init(allowPrivateAddresses: true, cache: .init(maxBytes: 10_000)))
        defer { f.finish() }
        f.server.route("/big", .bytes(TestHTTPServer.pattern(50_000), contentType: "image/png"))
        _ = try await f.downloader.download(f.request("/big", to: "1"))
        _ = try await f.downloader.download(f.request("/big", to: "2"))
        #expect(f.server.requestCount("/big") == 2)
        #expect(ScratchDirectory.list(f.downloader.workDirectory).isEmpty)
    }

    @Test func campaignSharingFewURLsFetchesEachOnce() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        for i in 0..<5 { f.server.route("/m\(i).jpg", .bytes(TestHTTPServer.pattern(20_000 + i), contentType: "image/jpeg")) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<200 {
                let request = f.request("/m\(n % 5).jpg", to: "n\(n)")
                group.addTask { _ = try await f.downloader.download(request) }
            }
            try await group.waitForAll()
        }
        for i in 0..<5 { #expect(f.server.requestCount("/m\(i).jpg") == 1) }
        #expect(ScratchDirectory.list(f.scratch.path).count == 200)
    }

    @Test func fiftyDistinctDownloadsAtOnce() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        for i in 0..<50 { f.server.route("/d\(i)", .bytes(TestHTTPServer.pattern(100_000 + i), contentType: "image/png")) }
        let results = try await withThrowingTaskGroup(of: DownloadResult.self) { group in
            for i in 0..<50 {
                let request = f.request("/d\(i)", to: "d\(i)")
                group.addTask { try await f.downloader.download(request) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        for i in 0..<50 {
            #expect(fileBytes(f.scratch.file("d\(i)")) == TestHTTPServer.pattern(100_000 + i))
            #expect(f.server.requestCount("/d\(i)") == 1)
        }
    }
}
