import NSECore

/// Names attachments and their files: identifiers unique within the notification, files
/// `<safeFileName(identifier)>.<extension from the URL, or "bin">`.
///
/// The extension is only a first guess: the validation stage renames the file to the
/// extension its bytes call for (a `.bin` silently, any other with a warning).
struct AttachmentNaming {
    /// File stems already in use, compared without case (file systems may ignore it).
    private var taken: Set<String> = []

    init(existing: [Attachment]) {
        for attachment in existing { taken.insert(safeFileName(attachment.identifier).lowercased()) }
    }

    /// A unique identifier built on `base`: `image`, then `image-2`, `image-3`, …
    mutating func uniqueIdentifier(_ base: String) -> String {
        // Made safe first: `safeFileName` cuts names at 64 characters, so a suffix added to a
        // long name before that would be cut off again and the search would never end.
        let stem = safeFileName(base)
        if taken.insert(stem.lowercased()).inserted { return base }
        var candidate = stem
        var number = 1
        while taken.contains(candidate.lowercased()) {
            number += 1
            let suffix = "-\(number)"
            candidate = String(stem.prefix(64 - suffix.count)) + suffix
        }
        taken.insert(candidate.lowercased())
        return candidate
    }

    /// The file name for an attachment downloaded from `url`.
    static func fileName(identifier: String, url: String) -> String {
        safeFileName(identifier) + "." + (urlExtension(url) ?? "bin")
    }

    /// The extension of the URL's last path segment, if it looks like one (letters and digits,
    /// at most 5), lowercased: `https://x/a/photo.JPG?w=1` → `jpg`.
    static func urlExtension(_ url: String) -> String? {
        // An ASCII URL (nearly all) is read as bytes, with the same rules as below; the
        // Character walk and Foundation's range(of:) cost more than the rest of the naming.
        if url.utf8.allSatisfy({ $0 < 0x80 }) { return asciiURLExtension(Array(url.utf8)) }
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "?" && $0 != "#" }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let path = rest[slash...]
        guard let last = path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return nil }
        let ext = last[last.index(after: dot)...].lowercased()
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return ext
    }

    /// ``urlExtension(_:)`` for a URL of ASCII bytes.
    private static func asciiURLExtension(_ bytes: [UInt8]) -> String? {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var start = 0
        // After the first "://", if any.
        if bytes.count >= 3 {
            for index in 0...(bytes.count - 3)
            where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == slash && bytes[index + 2] == slash {
                start = index + 3
                break
            }
        }
        // Up to the query or fragment.
        let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        guard let firstSlash = bytes[start..<end].firstIndex(of: slash) else { return nil }
        // The last non-empty path segment.
        var segmentEnd = end
        while segmentEnd > firstSlash, bytes[segmentEnd - 1] == slash { segmentEnd -= 1 }
        guard segmentEnd > firstSlash else { return nil }
        let segmentStart = (bytes[firstSlash..<segmentEnd].lastIndex(of: slash) ?? firstSlash) + 1
        guard let lastDot = bytes[segmentStart..<segmentEnd].lastIndex(of: dot) else { return nil }
        let ext = bytes[(lastDot + 1)..<segmentEnd]
        guard (1...5).contains(ext.count), ext.allSatisfy({
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }) else { return nil }
        return String(decoding: ext.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
