/// The three kinds of media iOS accepts as a notification attachment.
public enum AttachmentKind: String, Sendable, Hashable, CaseIterable, Codable {
    case audio, image, video
}

/// How an attachment should be shown, as `UNNotificationAttachment`'s options say.
public struct AttachmentOptions: Sendable, Hashable {
    /// A UTI the sender claims the file has (`UNNotificationAttachmentOptionsTypeHintKey`). A hint only.
    public var typeHint: String?
    /// Hide the thumbnail (`UNNotificationAttachmentOptionsThumbnailHiddenKey`).
    public var thumbnailHidden: Bool?
    /// The part of an image to show as thumbnail, in unit coordinates (0…1).
    public var thumbnailClippingRect: ClippingRect?
    /// The frame of a video or animated image to show as thumbnail, in seconds.
    public var thumbnailTime: Double?

    public init(
        typeHint: String? = nil,
        thumbnailHidden: Bool? = nil,
        thumbnailClippingRect: ClippingRect? = nil,
        thumbnailTime: Double? = nil
    ) {
        self.typeHint = typeHint
        self.thumbnailHidden = thumbnailHidden
        self.thumbnailClippingRect = thumbnailClippingRect
        self.thumbnailTime = thumbnailTime
    }

    /// A rectangle in unit coordinates.
    public struct ClippingRect: Sendable, Hashable {
        public var x: Double, y: Double, width: Double, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// True when no option is set.
    public var isEmpty: Bool {
        typeHint == nil && thumbnailHidden == nil && thumbnailClippingRect == nil && thumbnailTime == nil
    }
}

/// A file attached to a notification, as `UNNotificationAttachment` describes it.
///
/// `kind`, `uti`, `mime` and `byteCount` are filled in by the attachment validation stage
/// from the file's bytes; a modifier that adds an attachment only needs `identifier` and `file`.
public struct Attachment: Sendable, Hashable {
    /// The identifier, unique within the notification.
    public var identifier: String
    /// The path of the local file.
    public var file: String
    /// The kind the bytes revealed.
    public var kind: AttachmentKind?
    /// The uniform type identifier, e.g. `public.jpeg`.
    public var uti: String?
    /// The MIME type, e.g. `image/jpeg`.
    public var mime: String?
    /// The size of the file in bytes.
    public var byteCount: Int64?
    /// Where the file was downloaded from, if it was.
    public var source: String?
    /// Display options.
    public var options: AttachmentOptions

    public init(
        identifier: String,
        file: String,
        kind: AttachmentKind? = nil,
        uti: String? = nil,
        mime: String? = nil,
        byteCount: Int64? = nil,
        source: String? = nil,
        options: AttachmentOptions = AttachmentOptions()
    ) {
        self.identifier = identifier
        self.file = file
        self.kind = kind
        self.uti = uti
        self.mime = mime
        self.byteCount = byteCount
        self.source = source
        self.options = options
    }
}

/// An attachment that was not accepted, with iOS's reason and a detail a person can act on.
public struct Rejection: Sendable, Hashable {
    /// iOS's reasons for refusing an attachment, plus the download failures that precede them.
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The bytes are not one of the accepted types (`UNErrorCodeAttachmentUnrecognizedType`).
        public static let unrecognizedType = Reason(rawValue: "unrecognized-type")
        /// The file is empty or over its kind's limit (`UNErrorCodeAttachmentInvalidFileSize`).
        public static let invalidFileSize = Reason(rawValue: "invalid-file-size")
        /// The URL is not one that can be used (`UNErrorCodeAttachmentInvalidURL`).
        public static let invalidURL = Reason(rawValue: "invalid-url")
        /// The file could not be fetched (network, HTTP status, address refused, deadline).
        public static let downloadFailed = Reason(rawValue: "download-failed")
    }

    /// The identifier the attachment would have had, if known.
    public var identifier: String?
    /// Where the attachment came from (a URL or a local path).
    public var source: String?
    /// Why it was refused.
    public var reason: Reason
    /// What happened, in words a person can act on.
    public var detail: String

    public init(identifier: String? = nil, source: String?, reason: Reason, detail: String) {
        self.identifier = identifier
        self.source = source
        self.reason = reason
        self.detail = detail
    }
}
