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
}
