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
    /// The smallest limit of any kind: no file of this size or less is over its kind's limit.
    public var smallest: Int64 { min(audio, image, video) }
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

    /// The accepted type libmagic's answer for some bytes denotes, or nil when iOS refuses them.
    ///
    /// `mime` is what libmagic reports with `MAGIC_MIME_TYPE`, `description` what it reports
    /// without flags (as `file -b` prints it). The MIME type decides, except where one MIME type
    /// covers several things iOS tells apart:
    /// - `video/mpeg`: libmagic reads the pack header of a multiplexed stream (or the sequence
    ///   header of an elementary one) and says `MPEG sequence, v1` for MPEG-1 (`public.mpeg`)
    ///   and `MPEG sequence, v2` for an MPEG-2 program stream (`public.mpeg-2-video`).
    /// - `audio/mpeg`: also covers MPEG audio layers I and II, which are not MP3.
    public static func type(mime: String, description: String) -> AttachmentType? {
        let mime = mime.lowercased()
        switch mime {
        case "video/mpeg":
            if description.contains("MPEG sequence, v2") || description.contains("MPEG-2") {
                return type(uti: "public.mpeg-2-video")
            }
            if description.contains("MPEG sequence, v1") {
                return type(uti: "public.mpeg")
            }
            return nil
        case "audio/mpeg":
            // "MPEG ADTS, layer II, …" or "layer I, …" is MP2/MP1 audio, not MP3.
            if description.contains("layer II,") || description.contains("layer I,") {
                return nil
            }
            return type(uti: "public.mp3")
        default:
            guard let uti = mimeAliases[mime] else { return nil }
            return type(uti: uti)
        }
    }

    /// MIME types that denote one accepted type unambiguously: libmagic's spelling first, then
    /// the registered spellings other sniffers use.
    private static let mimeAliases: [String: String] = [
        "audio/x-aiff": "public.aiff-audio", "audio/aiff": "public.aiff-audio",
        "audio/x-wav": "com.microsoft.waveform-audio", "audio/wav": "com.microsoft.waveform-audio",
        "audio/vnd.wave": "com.microsoft.waveform-audio",
        "audio/x-m4a": "public.mpeg-4-audio", "audio/mp4": "public.mpeg-4-audio",
        "image/jpeg": "public.jpeg", "image/gif": "com.compuserve.gif", "image/png": "public.png",
        "video/mp4": "public.mpeg-4",
        // An iTunes M4V is an MPEG-4 file with Apple's brand; its UTI conforms to public.mpeg-4.
        "video/x-m4v": "public.mpeg-4",
        "video/x-msvideo": "public.avi", "video/avi": "public.avi",
    ]

    /// Whether a file extension names this type (accepting common spellings: jpeg, aif, mpeg).
    public static func fileExtension(_ fileExtension: String, matches type: AttachmentType) -> Bool {
        let ext = fileExtension.lowercased()
        return (extensionAliases[ext] ?? ext) == type.fileExtension
    }

    private static let extensionAliases = ["jpeg": "jpg", "aif": "aiff", "mpeg": "mpg", "m4v": "mp4"]

    /// The kind a file extension suggests (a hint only; the bytes decide).
    public static func kind(fileExtension: String) -> AttachmentKind? {
        types.first { Self.fileExtension(fileExtension, matches: $0) }?.kind
    }
}
