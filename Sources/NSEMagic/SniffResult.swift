import NSECore

/// What libmagic made of some bytes, and which iOS attachment type that is, if any.
public struct SniffResult: Sendable, Hashable {
    /// The accepted attachment type the bytes are, or nil when iOS does not accept them.
    public var type: AttachmentType?
    /// The MIME type libmagic reports (`file --mime-type`), e.g. `image/png`.
    public var mime: String
    /// libmagic's description (`file -b`), e.g. `PNG image data, 32 x 32, 8-bit/color RGB, non-interlaced`;
    /// nil for an accepted type sniffed with `DescriptionPolicy.whenNeeded`.
    public var description: String?
    /// The size of the file, or of the buffer when only bytes were sniffed.
    public var byteCount: Int64

    /// Makes a result.
    public init(type: AttachmentType?, mime: String, description: String?, byteCount: Int64) {
        self.type = type
        self.mime = mime
        self.description = description
        self.byteCount = byteCount
    }

    /// True when iOS accepts this type (size aside).
    public var isSupported: Bool { type != nil }
    /// The kind (audio, image, video), when supported.
    public var kind: AttachmentKind? { type?.kind }
    /// The uniform type identifier, when supported, e.g. `public.png`.
    public var uti: String? { type?.uti }
    /// The file extension iOS expects, when supported, e.g. `png`.
    public var fileExtension: String? { type?.fileExtension }

    /// Whether the size is within the limit of the kind; false for unsupported or empty files.
    public func fits(_ limits: AttachmentLimits) -> Bool {
        guard let kind else { return false }
        return byteCount > 0 && byteCount <= limits[kind]
    }
}

extension AttachmentRules {
    /// The accepted types as a short list for messages: `aiff, wav, mp3, …`.
    static var acceptedExtensionList: String {
        var seen: Set<String> = []
        return types.map(\.fileExtension).filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}
