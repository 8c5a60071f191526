extension Downloader {
    /// How a ``Downloader`` behaves. The defaults suit media for notifications on the public
    /// internet.
    public struct Configuration: Sendable {
        /// Allow private, loopback and link-local addresses (the pipeline's
        /// `network.allow-private`). Off by default, so a payload cannot reach inside the network.
        public var allowPrivateAddresses: Bool
        /// How long to wait for a connection to be made.
        public var connectTimeout: Duration
        /// How long a transfer may go without receiving a byte before it fails as stalled
        /// (whole seconds, at least one).
        public var stallTimeout: Duration
        /// How many redirects to follow.
        public var maxRedirects: Int
        /// The `User-Agent` sent with every request.
        public var userAgent: String
        /// How many connections may be open at once; further transfers wait their turn.
        public var maxConcurrentTransfers: Int
        /// A CA bundle file to verify servers with, instead of the system's.
        public var caPath: String?
        /// An explicit proxy URL. Proxies from the environment are not used, because the address
        /// guard must see the real destination.
        public var proxy: String?
        /// How many first bytes a request's `classify` callback receives.
        public var classifyPrefixLength: Int
        /// The recent-downloads cache.
        public var cache: CacheConfiguration
        /// Where transfers write their files before handing them over. By default a private
        /// directory is created in the temporary directory and removed on shutdown.
        /// Destinations on the same file system receive hard links instead of copies.
        public var workDirectory: String?

        /// A configuration; every argument has the default described on its property.
        public init(
            allowPrivateAddresses: Bool = false,
            connectTimeout: Duration = .seconds(10),
            stallTimeout: Duration = .seconds(10),
            maxRedirects: Int = 5,
            userAgent: String = "nse (notification media)",
            maxConcurrentTransfers: Int = 64,
            caPath: String? = nil,
            proxy: String? = nil,
            classifyPrefixLength: Int = 512,
            cache: CacheConfiguration = .init(),
            workDirectory: String? = nil
        ) {
            self.allowPrivateAddresses = allowPrivateAddresses
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
            self.maxConcurrentTransfers = maxConcurrentTransfers
            self.caPath = caPath
            self.proxy = proxy
            self.classifyPrefixLength = classifyPrefixLength
            self.cache = cache
            self.workDirectory = workDirectory
        }
    }

    /// The cache of recently completed downloads, which lets many notifications that share a
    /// URL fetch it about once. Each caller's own limits still apply to a cached body.
    public struct CacheConfiguration: Sendable {
        /// How long a completed body is reused. Zero turns the cache off.
        public var timeToLive: Duration
        /// The most bytes the cache keeps on disk; bodies larger than this are not kept.
        public var maxBytes: Int64
        /// The most bodies the cache keeps.
        public var maxEntries: Int

        /// A cache configuration; 60 s, 256 MB and 1,000 entries by default.
        public init(timeToLive: Duration = .seconds(60), maxBytes: Int64 = 256_000_000, maxEntries: Int = 1000) {
            self.timeToLive = timeToLive
            self.maxBytes = maxBytes
            self.maxEntries = maxEntries
        }

        /// No cache: only transfers in flight at the same moment are shared.
        public static let disabled = CacheConfiguration(timeToLive: .zero, maxBytes: 0, maxEntries: 0)
    }
}
