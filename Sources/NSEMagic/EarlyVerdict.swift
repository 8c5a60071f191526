import NSECore

/// What the first bytes of a transfer say about it: go on up to a limit, read more, or stop.
///
/// A downloader asks after the first chunk arrives, and again when it has the number of bytes
/// `needMoreBytes` names. With `accept`, it cuts the transfer once it passes `limit` (an image
/// stops at 10 MB + 1 byte instead of pulling 50 MB). If the transfer ends before a verdict,
/// the whole file is classified by the validation stage as usual.
public enum EarlyVerdict: Sendable, Hashable {
    /// The bytes are of an accepted type; the whole file may be at most `limit` bytes.
    case accept(AttachmentType, limit: Int64)
    /// Too few bytes to tell; ask again once `atLeast` bytes have arrived.
    case needMoreBytes(atLeast: Int)
    /// The transfer cannot become an acceptable attachment: stop it.
    case reject(Rejection.Reason, detail: String)

    /// Below this many bytes, an answer that could still change (plain data or text) means
    /// "read more"; from here on it means "not an attachment type". Every signature of the
    /// accepted types sits in the first few dozen bytes (MP3 behind an ID3 tag aside).
    public static let decisivePrefix = 512
}

/// The early verdict as a plain function: what a downloader's progress callback can hold.
public typealias EarlyVerdictFunction = @Sendable ([UInt8]) -> EarlyVerdict

extension MagicSniffer {
    /// Decides what to do with a transfer from its first bytes.
    ///
    /// - Parameters:
    ///   - prefix: the bytes received so far, from the start.
    ///   - limits: the size limit of each kind.
    ///   - expectedByteCount: the full size if the server announced it (`Content-Length`); a file
    ///     that will be over its kind's limit is rejected at once.
    public func earlyVerdict(
        prefix: [UInt8],
        limits: AttachmentLimits = .ios,
        expectedByteCount: Int64? = nil
    ) -> EarlyVerdict {
        if expectedByteCount == 0 {
            return .reject(.invalidFileSize, detail: "the file is empty (0 bytes)")
        }
        if prefix.isEmpty {
            return .needMoreBytes(atLeast: EarlyVerdict.decisivePrefix)
        }
        // An ID3 tag (album art can make it megabytes) hides the audio frame libmagic needs.
        if let tagEnd = ID3Tag.end(of: prefix) {
            let needed = tagEnd + EarlyVerdict.decisivePrefix
            if tagEnd > limits.audio {
                return .reject(.invalidFileSize, detail: "audio: ID3 tag alone is \(tagEnd) > \(limits.audio) bytes")
            }
            if prefix.count < needed, needed <= bytesMax {
                return .needMoreBytes(atLeast: needed)
            }
        }

        let result: SniffResult
        do {
            result = try sniff(bytes: prefix, describe: .whenNeeded)
        } catch {
            // libmagic failing on a buffer is not the sender's fault: let the transfer finish
            // and the validation stage decide on the whole file.
            return .needMoreBytes(atLeast: max(prefix.count + 1, EarlyVerdict.decisivePrefix))
        }

        if let type = result.type {
            let limit = limits[type.kind]
            if let expected = expectedByteCount, expected > limit {
                return .reject(.invalidFileSize, detail: "\(type.kind): \(expected) > \(limit) bytes")
            }
            return .accept(type, limit: limit)
        }
        if prefix.count < EarlyVerdict.decisivePrefix, Self.mayStillChange(mime: result.mime) {
            return .needMoreBytes(atLeast: EarlyVerdict.decisivePrefix)
        }
        return .reject(.unrecognizedType, detail: Self.unrecognizedDetail(result))
    }

    /// ``earlyVerdict(prefix:limits:expectedByteCount:)`` as a `@Sendable` function of the prefix.
    public func earlyVerdictFunction(limits: AttachmentLimits = .ios) -> EarlyVerdictFunction {
        { [self] prefix in earlyVerdict(prefix: prefix, limits: limits) }
    }

    /// Answers that more bytes may turn into an accepted type: libmagic's fallbacks, and the
    /// MIME types of accepted types whose details are still missing (4 bytes of an MPEG stream
    /// say `video/mpeg`, "MPEG sequence", but not yet whether it is MPEG-1 or MPEG-2).
    static func mayStillChange(mime: String) -> Bool {
        ["application/octet-stream", "text/plain", "application/x-empty", "inode/x-empty"].contains(mime)
            || AttachmentRules.types.contains { $0.mime == mime }
    }

    /// The detail of an `unrecognized-type` rejection: libmagic's words, then what iOS takes.
    static func unrecognizedDetail(_ result: SniffResult) -> String {
        "\(result.description ?? result.mime): not an attachment type iOS accepts (\(AttachmentRules.acceptedExtensionList))"
    }
}

/// The ID3v2 tag that may precede MP3 (and other) audio.
enum ID3Tag {
    /// Where the tag ends (its header, body and optional footer), or nil if `bytes` does not
    /// start with a well-formed ID3v2 header.
    static func end(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,  // "ID3"
              bytes[3] < 0xFF, bytes[4] < 0xFF
        else { return nil }
        // The size is four 7-bit bytes ("syncsafe"); a set high bit means this is not ID3.
        var size = 0
        for byte in bytes[6..<10] {
            guard byte & 0x80 == 0 else { return nil }
            size = size << 7 | Int(byte)
        }
        let hasFooter = bytes[5] & 0x10 != 0
        return 10 + size + (hasFooter ? 10 : 0)
    }
}
