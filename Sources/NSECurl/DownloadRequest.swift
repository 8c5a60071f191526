/// What the first bytes of a body turned out to be, as judged by a request's `classify`
/// callback.
public enum PrefixVerdict: Sendable, Equatable {
    /// The bytes are of a kind whose size limit is this many bytes; the transfer is cut as soon
    /// as it passes it (or at once, when `Content-Length` already says it will).
    case limit(Int64)
    /// Stop now; the string says why (e.g. "an HTML page, not an image").
    case reject(String)
    /// Too few bytes to tell; ask again when more have arrived.
    case needMoreBytes
}

/// One download: where from, where to, until when, and how large it may be.
public struct DownloadRequest: Sendable {
    /// An http or https URL.
    public var url: String
    /// The file to create. It must not exist yet; it appears only when the download succeeds.
    public var destination: String
    /// When to give up. The download fails with ``DownloadError/Code/timedOut`` at this instant.
    public var deadline: ContinuousClock.Instant
    /// The absolute cap on the body, in bytes, whatever `classify` says.
    public var maxBytes: Int64
    /// Judges the first bytes of the body, as soon as at least
    /// ``Downloader/Configuration/classifyPrefixLength`` bytes (or the whole body, if shorter)
    /// have arrived. Called on the download thread, or on the caller's own for a body served
    /// from the recent-downloads cache: it must be thread-safe, quick and must not block.
    public var classify: (@Sendable (_ prefix: [UInt8]) -> PrefixVerdict)?
    /// A body known to be at most this many bytes, by its `Content-Length` or because it has
    /// all arrived before `classify` was asked, is not classified. Set it to the smallest
    /// ``PrefixVerdict/limit(_:)`` `classify` can give when the caller checks the file itself
    /// afterwards: no verdict could cut such a body, so sniffing it twice would only cost time.
    /// The default, 0, classifies every body.
    public var classifyAbove: Int64

    /// A request with the given fields.
    public init(
        url: String,
        destination: String,
        deadline: ContinuousClock.Instant,
        maxBytes: Int64,
        classify: (@Sendable (_ prefix: [UInt8]) -> PrefixVerdict)? = nil,
        classifyAbove: Int64 = 0
    ) {
        self.url = url
        self.destination = destination
        self.deadline = deadline
        self.maxBytes = maxBytes
        self.classify = classify
        self.classifyAbove = classifyAbove
    }
}

/// A completed download.
public struct DownloadResult: Sendable {
    /// The file that now holds the body (the request's destination).
    public var file: String
    /// The size of the body as it came over the wire, in bytes.
    public var byteCount: Int64
    /// The `Content-Type` the server declared, if any. A hint only; the bytes decide.
    public var contentType: String?
    /// The URL the body came from, after redirects.
    public var effectiveURL: String
    /// The HTTP status of the final response.
    public var httpStatus: Int
    /// How many redirects were followed.
    public var redirectCount: Int
    /// The time from the call to the file being in place.
    public var elapsed: Duration
    /// True when the body was not fetched for this call alone: it came from the recent-downloads
    /// cache, or from a transfer that served several callers at once.
    public var shared: Bool
}
