@testable import NSECurl
import Testing

@Suite("Recent-downloads cache bounds")
struct ResponseCacheTests {
    /// A body of `bytes` bytes whose file does not exist (its deletion is harmless).
    func body(_ bytes: Int64) -> FetchedBody {
        FetchedBody(
            path: "/nonexistent/nse-cache-test", byteCount: bytes, contentType: nil, effectiveURL: "",
            httpStatus: 200, redirectCount: 0, prefix: [])
    }

    @Test func oldestEntriesGoFirstWhenOverTheEntryOrByteBound() {
        var cache = ResponseCache(configuration: .init(timeToLive: .seconds(60), maxBytes: 1_000, maxEntries: 3))
        let now = ContinuousClock.now
        for index in 0..<5 { _ = cache.insert("u\(index)", body(10), now: now) }
        #expect((0..<5).map { cache.lookup("u\($0)", now: now).body != nil } == [false, false, true, true, true])
        // Replacing an entry makes it the newest; the byte bound then drops the oldest ones.
        _ = cache.insert("u2", body(10), now: now)
        let released = cache.insert("big", body(985), now: now)
        #expect(released.count == 2)
        #expect(cache.lookup("u4", now: now).body == nil)
        #expect(cache.lookup("u2", now: now).body != nil)
        #expect(cache.totalBytes == 995)
    }

    @Test func expiredEntriesAreDroppedOnInsertAndNotServed() {
        var cache = ResponseCache(configuration: .init(timeToLive: .seconds(5), maxBytes: 1_000, maxEntries: 100))
        let start = ContinuousClock.now
        _ = cache.insert("old", body(10), now: start)
        _ = cache.insert("newer", body(10), now: start + .seconds(3))
        #expect(cache.lookup("old", now: start + .seconds(6)).body == nil)
        let released = cache.insert("new", body(10), now: start + .seconds(9))
        #expect(released.count == 1)  // "newer" expired; "old" went at its lookup
        #expect(cache.totalBytes == 10)
    }

    @Test func manyInsertionsStayWithinTheBoundsAndKeepTheNewest() {
        var cache = ResponseCache(configuration: .init(timeToLive: .seconds(60), maxBytes: 1_000_000, maxEntries: 50))
        let now = ContinuousClock.now
        for index in 0..<2_000 { _ = cache.insert("u\(index % 300)", body(100), now: now) }
        #expect(cache.totalBytes == 50 * 100)
        #expect((1_950..<2_000).allSatisfy { cache.lookup("u\($0 % 300)", now: now).body != nil })
        #expect(cache.lookup("u\(1_949 % 300)", now: now).body == nil)
    }
}
