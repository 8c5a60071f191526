import Synchronization

/// The recent-downloads cache, shared by the engine thread, which fills it, and callers, who
/// are served from it on their own thread: a cached body needs no command to the engine, no
/// wake-up and no continuation.
final class RecentBodies: Sendable {
    private let cache: Mutex<ResponseCache>

    init(configuration: Downloader.CacheConfiguration) {
        cache = Mutex(ResponseCache(configuration: configuration))
    }

    func lookup(_ url: String, now: ContinuousClock.Instant) -> FetchedBody? {
        // An expired body is released after the lock, since releasing the last holder deletes its file.
        let (body, released) = cache.withLock { $0.lookup(url, now: now) }
        withExtendedLifetime(released) {}
        return body
    }

    func insert(_ url: String, _ body: FetchedBody, now: ContinuousClock.Instant) {
        let released = cache.withLock { $0.insert(url, body, now: now) }
        withExtendedLifetime(released) {}
    }

    func removeAll() {
        let released = cache.withLock { $0.removeAll() }
        withExtendedLifetime(released) {}
    }
}

/// Recently completed bodies by URL, bounded in age, total bytes and entry count, so a
/// campaign where many notifications share a few URLs fetches each about once.
///
/// The mutating calls return the bodies they dropped, for the caller to release.
struct ResponseCache {
    /// How long a body is reused, how much disk the cache may hold, and how many entries.
    var configuration: Downloader.CacheConfiguration
    private var entries: [String: (body: FetchedBody, storedAt: ContinuousClock.Instant, insertion: Int)] = [:]
    /// Insertions from oldest to newest, from `oldest` on. An insertion whose entry has since
    /// been removed or replaced is skipped when reached, so removing costs no search: with
    /// hundreds of entries, searching on every insertion cost the engine thread more than a
    /// transfer's own bookkeeping.
    private var order: [(url: String, insertion: Int)] = []
    private var oldest = 0
    /// Numbers insertions, telling a replaced entry's old place in `order` from its new one.
    private var insertions = 0
    private(set) var totalBytes: Int64 = 0

    init(configuration: Downloader.CacheConfiguration) {
        self.configuration = configuration
    }

    private var enabled: Bool {
        configuration.timeToLive > .zero && configuration.maxBytes > 0 && configuration.maxEntries > 0
    }

    mutating func lookup(_ url: String, now: ContinuousClock.Instant) -> (body: FetchedBody?, released: FetchedBody?) {
        guard let entry = entries[url] else { return (nil, nil) }
        guard now - entry.storedAt < configuration.timeToLive else {
            return (nil, remove(url))
        }
        return (entry.body, nil)
    }

    mutating func insert(_ url: String, _ body: FetchedBody, now: ContinuousClock.Instant) -> [FetchedBody] {
        guard enabled, body.byteCount <= configuration.maxBytes else { return [] }
        var released: [FetchedBody] = []
        if let old = remove(url) { released.append(old) }
        insertions += 1
        entries[url] = (body, now, insertions)
        order.append((url, insertions))
        totalBytes += body.byteCount
        // Expired first, then oldest, until within bounds.
        while let first = oldestURL(), let storedAt = entries[first]?.storedAt,
              totalBytes > configuration.maxBytes || entries.count > configuration.maxEntries
                || now - storedAt >= configuration.timeToLive {
            if let old = remove(first) { released.append(old) }
        }
        return released
    }

    mutating func removeAll() -> [FetchedBody] {
        let released = entries.values.map(\.body)
        entries.removeAll()
        order.removeAll()
        oldest = 0
        totalBytes = 0
        return released
    }

    /// The URL of the oldest insertion whose entry is still there.
    private mutating func oldestURL() -> String? {
        while oldest < order.count {
            let candidate = order[oldest]
            if entries[candidate.url]?.insertion == candidate.insertion { return candidate.url }
            oldest += 1
        }
        // Everything before `oldest` is gone: drop it, now and then, in one move.
        if oldest > 0 {
            order.removeAll(keepingCapacity: true)
            oldest = 0
        }
        return nil
    }

    private mutating func remove(_ url: String) -> FetchedBody? {
        guard let entry = entries.removeValue(forKey: url) else { return nil }
        totalBytes -= entry.body.byteCount
        if oldest > 256, oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
        return entry.body
    }
}
