import Foundation
import NSECore

/// Classifies files and bytes with libmagic into the attachment types iOS accepts.
///
/// Thread-safe: it keeps a pool of libmagic handles, each used by one thread at a time, so one
/// sniffer serves every notification. Make one per process and share it.
///
/// ```swift
/// let sniffer = try MagicSniffer()
/// let result = try sniffer.sniff(file: "/tmp/n1/image.png")
/// result.uti        // "public.png"
/// ```
public final class MagicSniffer: Sendable {
    private let pool: CookiePool
    private let readOnlyFiles = ReadOnlyFileMemo()
    /// How many bytes of a file libmagic looks at, at most (its `MAGIC_PARAM_BYTES_MAX`).
    public let bytesMax: Int

    /// Makes a sniffer.
    ///
    /// - Parameters:
    ///   - poolSize: how many libmagic handles may classify at once; default: the number of cores.
    ///   - databasePath: a compiled magic database; `nil` uses the system's, as `file` does.
    /// - Throws: `MagicError` with `.loadFailed` when the database cannot be loaded.
    public init(poolSize: Int = ProcessInfo.processInfo.activeProcessorCount, databasePath: String? = nil) throws {
        pool = try CookiePool(capacity: max(1, poolSize), databasePath: databasePath)
        bytesMax = try pool.withCookie { $0.bytesMax }
    }

    /// How many libmagic handles may classify at once.
    public var poolSize: Int { pool.capacity }

    /// How many libmagic handles have been loaded so far (they are made on demand).
    public var loadedHandleCount: Int { pool.createdCount }

    /// Classifies the file at `path` by its bytes (its name plays no part).
    ///
    /// - Parameter describe: whether to ask libmagic for its description even when the MIME
    ///   type alone decides; each answer is a full pass over libmagic's rules.
    /// - Throws: `MagicError` with `.fileNotFound`, `.notARegularFile` or `.readFailed`.
    ///
    /// A file without write permission (as the downloader's shared bodies are) is classified
    /// once per inode, size and modification time; its later results come from memory.
    public func sniff(file path: String, describe: DescriptionPolicy = .always) throws -> SniffResult {
        try sniff(file: path, identity: nil, describe: describe)
    }

    /// ``sniff(file:describe:)`` for a caller that has the file's status already: `identity` is
    /// the read-only identity made of it (`.some(nil)`: the file may be written), or nil to stat
    /// the file here.
    func sniff(file path: String, identity known: ReadOnlyFileMemo.Identity??, describe: DescriptionPolicy) throws -> SniffResult {
        let identity = known ?? ReadOnlyFileMemo.identity(of: path, describe: describe)
        if let identity, let known = readOnlyFiles.result(for: identity) { return known }
        let (result, size) = try classifyFile(path, describe: describe)
        if let identity, identity.size == size { readOnlyFiles.remember(result, for: identity) }
        return result
    }

    /// How many first bytes of a file are tried before all of them (up to `bytesMax`).
    ///
    /// Every accepted type is known by a signature in its first bytes, and libmagic's time
    /// grows with the bytes it is given: a 100 KB image took about 0.2 ms more than its first
    /// 16 KB. Reading `bytesMax` (7 MB with libmagic 5.44) of each video also cost 7 MB of
    /// memory per validation under way.
    static let quickPrefixLength = 16 * 1024

    /// Classifies a file from its first bytes, reading up to `bytesMax` only when needed.
    ///
    /// When the whole file fits in the quick prefix, or the caller wants libmagic's description
    /// (which may come from deeper in the file, e.g. image dimensions after a large EXIF
    /// segment), this is exactly libmagic over up to `bytesMax` bytes. Otherwise, when the
    /// quick prefix's MIME type alone names an accepted type, that is the answer; any other
    /// answer (a refused type, `video/mpeg`, an MP3 behind a large ID3 tag) is decided on up
    /// to `bytesMax` bytes as before, so refusals and their descriptions do not change.
    private func classifyFile(_ path: String, describe: DescriptionPolicy) throws -> (SniffResult, Int64) {
        let quickLength = min(bytesMax, Self.quickPrefixLength)
        let quick = try FilePrefix.load(path, limit: quickLength)
        if quick.size <= Int64(quickLength) {
            return (try classify(quick.bytes, byteCount: quick.size, describe: describe), quick.size)
        }
        if describe == .whenNeeded {
            let mime = try quick.bytes.withUnsafeBytes { buffer in try pool.withCookie { try $0.mimeType(buffer) } }
            if let type = AttachmentRules.typeByMIMEAlone(mime) {
                return (SniffResult(type: type, mime: mime, description: nil, byteCount: quick.size), quick.size)
            }
        }
        // The long read happens while holding a libmagic handle, so at most `poolSize` such
        // buffers (up to `bytesMax` each) exist at once, however many files are validated.
        return try pool.withCookie { cookie in
            let full = try FilePrefix.load(path, limit: bytesMax)
            return (try full.bytes.withUnsafeBytes { try classify($0, byteCount: full.size, describe: describe, cookie: cookie) }, full.size)
        }
    }

    /// Classifies some bytes, e.g. the first bytes of a transfer.
    ///
    /// - Parameters:
    ///   - bytes: the bytes, from the start of the file.
    ///   - totalByteCount: the size of the whole file if known; defaults to `bytes.count`.
    ///   - describe: whether to ask libmagic for its description even when the MIME type alone decides.
    public func sniff(bytes: [UInt8], totalByteCount: Int64? = nil, describe: DescriptionPolicy = .always) throws -> SniffResult {
        try classify(bytes, byteCount: totalByteCount ?? Int64(bytes.count), describe: describe)
    }

    private func classify(_ bytes: [UInt8], byteCount: Int64, describe: DescriptionPolicy) throws -> SniffResult {
        try bytes.withUnsafeBytes { all in
            try pool.withCookie { cookie in try classify(all, byteCount: byteCount, describe: describe, cookie: cookie) }
        }
    }

    private func classify(
        _ all: UnsafeRawBufferPointer, byteCount: Int64, describe: DescriptionPolicy, cookie: MagicCookie
    ) throws -> SniffResult {
        // libmagic never looks past bytesMax; neither do we.
        let buffer = UnsafeRawBufferPointer(rebasing: all.prefix(bytesMax))
        let mime = try cookie.mimeType(buffer)
        if describe == .whenNeeded, let type = AttachmentRules.typeByMIMEAlone(mime) {
            return SniffResult(type: type, mime: mime, description: nil, byteCount: byteCount)
        }
        let description = try cookie.describe(buffer)
        return SniffResult(
            type: AttachmentRules.type(mime: mime, description: description),
            mime: mime, description: description, byteCount: byteCount)
    }
}

/// When to ask libmagic for its description besides the MIME type.
public enum DescriptionPolicy: Sendable, Hashable {
    /// Always: every result has libmagic's description (two passes over its rules).
    case always
    /// Only when the MIME type alone does not decide: for refused bytes (the description says
    /// what they are) and for MIME types that cover several things (`video/mpeg`, `audio/mpeg`).
    /// An accepted type then costs one pass, and its result has no description.
    case whenNeeded
}

extension AttachmentRules {
    /// The accepted type a MIME type denotes on its own, or nil when libmagic's description
    /// is needed to decide (or the type is refused).
    static func typeByMIMEAlone(_ mime: String) -> AttachmentType? {
        mime == "video/mpeg" || mime == "audio/mpeg" ? nil : type(mime: mime, description: "")
    }
}
