/// Why a download failed: a stable ``Code`` to branch on, and a message that says what happened
/// and what to do about it.
public struct DownloadError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. An extensible set: new codes may be added, so `switch` over it
    /// with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short kebab-case name, stable across releases (e.g. `too-large`).
        public let name: String

        /// A code with the given name.
        public init(_ name: String) { self.name = name }

        public var description: String { name }

        /// The URL cannot be parsed, or has no host.
        public static let invalidURL = Code("invalid-url")
        /// The URL (or a redirect) uses a scheme other than http or https.
        public static let unsupportedScheme = Code("unsupported-scheme")
        /// The host resolved to a private, loopback or link-local address, which is refused.
        public static let privateAddress = Code("private-address")
        /// The server answered with a status outside 2xx.
        public static let httpStatus = Code("http-status")
        /// The body is (or is declared to be) larger than the limit.
        public static let tooLarge = Code("too-large")
        /// The request's `classify` callback refused the first bytes.
        public static let rejectedContent = Code("rejected-content")
        /// The request's deadline passed before the body was complete.
        public static let timedOut = Code("timed-out")
        /// The connection could not be made in time, or the server stopped sending.
        public static let stalled = Code("stalled")
        /// More redirects than allowed.
        public static let tooManyRedirects = Code("too-many-redirects")
        /// A network or protocol failure reported by libcurl.
        public static let transport = Code("transport")
        /// The calling task was cancelled, or the downloader was shut down.
        public static let cancelled = Code("cancelled")
        /// The file could not be written or delivered.
        public static let io = Code("io")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and what to do, in one or two sentences.
    public var message: String
    /// The URL that was requested.
    public var url: String
    /// The HTTP status of the final response, when one arrived.
    public var httpStatus: Int?
    /// libcurl's result code (`CURLcode`), when libcurl reported the failure.
    public var curlCode: Int?
    /// libcurl's own description of the failure, when it gave one.
    public var curlMessage: String?

    /// An error with the given fields.
    public init(
        _ code: Code, _ message: String, url: String,
        httpStatus: Int? = nil, curlCode: Int? = nil, curlMessage: String? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.httpStatus = httpStatus
        self.curlCode = curlCode
        self.curlMessage = curlMessage
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let curlMessage, !curlMessage.isEmpty { text += " (libcurl: \(curlMessage))" }
        return text
    }
}
