/// Recently completed bodies by URL, bounded in age, total bytes and entry count, so a
/// campaign where many notifications share a few URLs fetches each about once.
///
/// Belongs to the engine thread.
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

    mutating func lookup(_ url: String, now: ContinuousClock.Instant) -> FetchedBody? {
        guard let entry = entries[url] else { return nil }
        guard now - entry.storedAt < configuration.timeToLive else {
            remove(url)
            return nil
        }
        return entry.body
    }

    mutating func insert(_ url: String, _ body: FetchedBody, now: ContinuousClock.Instant) {
        guard enabled, body.byteCount <= configuration.maxBytes else { return }
        remove(url)
        entries[url] = (body, now)
        order.append(url)
        totalBytes += body.byteCount
        // Expired first, then oldest, until within bounds.
        while let oldest = order.first,
              totalBytes > configuration.maxBytes || order.count > configuration.maxEntries
                || now - entries[oldest]!.storedAt >= configuration.timeToLive {
            remove(oldest)
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        totalBytes = 0
    }

    private mutating func remove(_ url: String) {
        guard let entry = entries.removeValue(forKey: url) else { return }
        order.removeAll { $0 == url }
        totalBytes -= entry.body.byteCount
    }
}
