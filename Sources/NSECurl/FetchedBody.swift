#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A body fetched to a file in the downloader's work directory, shared by every caller it
/// serves and by the recent-downloads cache. The file is deleted when the last holder lets go.
final class FetchedBody: Sendable {
    let path: String
    let byteCount: Int64
    let contentType: String?
    let effectiveURL: String
    let httpStatus: Int
    let redirectCount: Int
    /// The first bytes, kept so later callers can be judged without reading the file.
    let prefix: [UInt8]

    init(
        path: String, byteCount: Int64, contentType: String?, effectiveURL: String,
        httpStatus: Int, redirectCount: Int, prefix: [UInt8]
    ) {
        self.path = path
        self.byteCount = byteCount
        self.contentType = contentType
        self.effectiveURL = effectiveURL
        self.httpStatus = httpStatus
        self.redirectCount = redirectCount
        self.prefix = prefix
        // Read-only, because callers receive hard links to this very inode.
        chmod(path, 0o444)
    }

    deinit { unlink(path) }
}
