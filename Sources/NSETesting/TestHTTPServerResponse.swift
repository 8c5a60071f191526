extension TestHTTPServer {
    /// What the server answers on a path, including misbehaviours on purpose.
    public enum Response: Sendable {
        /// These bytes with this `Content-Type` (which may lie) and status.
        case bytes([UInt8], contentType: String, status: Int = 200)
        /// The contents of a file, read when requested.
        case file(path: String, contentType: String)
        /// `total` bytes of a pattern, `chunk` bytes every `every`. With `declaredLength`,
        /// that `Content-Length` is sent instead of the truth (it may be huge).
        case drip(total: Int, chunk: Int, every: Duration, contentType: String, declaredLength: Int64? = nil)
        /// Accepts the request and never answers (until the server stops, or a minute passes).
        case hang
        /// Sends `body` but declares `declaredLength` bytes, then closes the connection.
        case lyingLength(body: [UInt8], declaredLength: Int64, contentType: String)
        /// `total` bytes without `Content-Length`: chunked, or ended by closing. The body starts
        /// with `prefix` (e.g. a real file's header) and goes on with the pattern. With
        /// `falseLength`, a chunked body also carries that `Content-Length`, which a client must
        /// ignore (RFC 9112, 6.3) and which may lie.
        case unsized(total: Int, contentType: String, chunked: Bool, prefix: [UInt8] = [], falseLength: Int64? = nil)
        /// A redirect to `location` (absolute, or a path on this server).
        case redirect(to: String, status: Int = 302)
        /// A 404 with an HTML page.
        case notFoundHTML
        /// A gzip stream (`Content-Encoding: gzip`) of `decodedSize` zero bytes: tiny on the
        /// wire, large if decoded.
        case gzipBomb(decodedSize: Int, contentType: String)
    }

    /// The byte at `offset` of the pattern bodies are made of.
    public static func patternByte(_ offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset % 251) }

    /// The first `count` bytes of the pattern.
    public static func pattern(_ count: Int) -> [UInt8] { (0..<count).map(patternByte) }
}
