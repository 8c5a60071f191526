/// One of the attachment types iOS accepts.
public struct AttachmentType: Sendable, Hashable {
    /// The kind, which decides the size limit.
    public var kind: AttachmentKind
    /// The uniform type identifier iOS knows it by.
    public var uti: String
    /// The MIME type libmagic reports for it.
    public var mime: String
    /// The file extension iOS expects.
    public var fileExtension: String

    public init(kind: AttachmentKind, uti: String, mime: String, fileExtension: String) {
        self.kind = kind
        self.uti = uti
        self.mime = mime
        self.fileExtension = fileExtension
    }
}

/// The size limit of each kind, in bytes.
public struct AttachmentLimits: Sendable, Hashable {
    public var audio: Int64
    public var image: Int64
    public var video: Int64

    public init(audio: Int64, image: Int64, video: Int64) {
        self.audio = audio
        self.image = image
        self.video = video
    }

    /// Apple's published limits, reading "MB" as 1,000,000 bytes: the smaller, safe reading.
    public static let ios = AttachmentLimits(audio: 5_000_000, image: 10_000_000, video: 50_000_000)

    /// The limit for one kind.
    public subscript(kind: AttachmentKind) -> Int64 {
        get {
            switch kind {
            case .audio: audio
            case .image: image
            case .video: video
            }
        }
        set {
            switch kind {
            case .audio: audio = newValue
            case .image: image = newValue
            case .video: video = newValue
            }
        }
    }

    /// The largest limit of any kind: what a download may take before its kind is known.
    public var largest: Int64 { max(audio, image, video) }
}

/// The iOS attachment rules as data: which types are accepted, and of which kind they are.
public enum AttachmentRules {
    /// Every accepted type, in the order of Apple's documentation.
    public static let types: [AttachmentType] = [
        AttachmentType(kind: .audio, uti: "public.aiff-audio", mime: "audio/x-aiff", fileExtension: "aiff"),
        AttachmentType(kind: .audio, uti: "com.microsoft.waveform-audio", mime: "audio/x-wav", fileExtension: "wav"),
        AttachmentType(kind: .audio, uti: "public.mp3", mime: "audio/mpeg", fileExtension: "mp3"),
        AttachmentType(kind: .audio, uti: "public.mpeg-4-audio", mime: "audio/x-m4a", fileExtension: "m4a"),
        AttachmentType(kind: .image, uti: "public.jpeg", mime: "image/jpeg", fileExtension: "jpg"),
        AttachmentType(kind: .image, uti: "com.compuserve.gif", mime: "image/gif", fileExtension: "gif"),
        AttachmentType(kind: .image, uti: "public.png", mime: "image/png", fileExtension: "png"),
        AttachmentType(kind: .video, uti: "public.mpeg", mime: "video/mpeg", fileExtension: "mpg"),
        AttachmentType(kind: .video, uti: "public.mpeg-2-video", mime: "video/mpeg", fileExtension: "mpg"),
        AttachmentType(kind: .video, uti: "public.mpeg-4", mime: "video/mp4", fileExtension: "mp4"),
        AttachmentType(kind: .video, uti: "public.avi", mime: "video/x-msvideo", fileExtension: "avi"),
    ]

    /// The type with this UTI, if it is accepted.
    public static func type(uti: String) -> AttachmentType? {
        types.first { $0.uti == uti }
    }

    /// The kind a file extension suggests (a hint only; the bytes decide).
    public static func kind(fileExtension: String) -> AttachmentKind? {
        let ext = fileExtension.lowercased()
        let aliases = ["jpeg": "jpg", "aif": "aiff", "mpeg": "mpg", "m4v": "mp4"]
        let normalized = aliases[ext] ?? ext
        return types.first { $0.fileExtension == normalized }?.kind
    }
}
