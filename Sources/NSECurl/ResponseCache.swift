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
    private var entries: [String: (body: FetchedBody, storedAt: ContinuousClock.Instant)] = [:]
    /// URLs from oldest to newest.
    private var order: [String] = []
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
        entries[url] = (body, now)
        order.append(url)
        totalBytes += body.byteCount
        // Expired first, then oldest, until within bounds.
        while let oldest = order.first,
              totalBytes > configuration.maxBytes || order.count > configuration.maxEntries
                || now - entries[oldest]!.storedAt >= configuration.timeToLive {
            if let old = remove(oldest) { released.append(old) }
        }
        return released
    }

    mutating func removeAll() -> [FetchedBody] {
        let released = entries.values.map(\.body)
        entries.removeAll()
        order.removeAll()
        totalBytes = 0
        return released
    }

    private mutating func remove(_ url: String) -> FetchedBody? {
        guard let entry = entries.removeValue(forKey: url) else { return nil }
        order.removeAll { $0 == url }
        totalBytes -= entry.body.byteCount
        return entry.body
    }
}
