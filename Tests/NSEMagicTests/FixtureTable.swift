import NSECore
import NSETesting
import Testing

/// What each committed media fixture is, by its bytes, as libmagic 5.44 reports it.
struct FixtureCase: Sendable, CustomTestStringConvertible {
    var file: String
    /// The accepted type's UTI, or nil when iOS refuses the file.
    var uti: String?
    var mime: String
    /// The start of libmagic's description.
    var description: String

    var path: String { Fixtures.media(file) }
    var testDescription: String { file }

    static let accepted: [FixtureCase] = [
        .init(file: "tone.aiff", uti: "public.aiff-audio", mime: "audio/x-aiff", description: "IFF data, AIFF audio"),
        .init(file: "tone.wav", uti: "com.microsoft.waveform-audio", mime: "audio/x-wav", description: "RIFF (little-endian) data, WAVE audio"),
        .init(file: "tone.mp3", uti: "public.mp3", mime: "audio/mpeg", description: "Audio file with ID3 version 2.4.0"),
        .init(file: "tone-bare.mp3", uti: "public.mp3", mime: "audio/mpeg", description: "MPEG ADTS, layer III"),
        .init(file: "tone.m4a", uti: "public.mpeg-4-audio", mime: "audio/x-m4a", description: "ISO Media, Apple iTunes ALAC/AAC-LC (.M4A) Audio"),
        .init(file: "picture.jpg", uti: "public.jpeg", mime: "image/jpeg", description: "JPEG image data"),
        .init(file: "picture.gif", uti: "com.compuserve.gif", mime: "image/gif", description: "GIF image data"),
        .init(file: "picture.png", uti: "public.png", mime: "image/png", description: "PNG image data, 32 x 32"),
        .init(file: "clip-mpeg1.mpg", uti: "public.mpeg", mime: "video/mpeg", description: "MPEG sequence, v1, system multiplex"),
        .init(file: "clip-mpeg2.mpg", uti: "public.mpeg-2-video", mime: "video/mpeg", description: "MPEG sequence, v2, program multiplex"),
        .init(file: "clip.mp4", uti: "public.mpeg-4", mime: "video/mp4", description: "ISO Media, MP4 Base Media v1"),
        .init(file: "clip.avi", uti: "public.avi", mime: "video/x-msvideo", description: "RIFF (little-endian) data, AVI"),
        // A PNG cut after 20 bytes: its signature is intact, so by bytes it is a PNG. iOS checks
        // an attachment's type and size, not whether it decodes.
        .init(file: "truncated.png", uti: "public.png", mime: "image/png", description: "PNG image data"),
    ]

    static let refused: [FixtureCase] = [
        .init(file: "picture.webp", uti: nil, mime: "image/webp", description: "RIFF (little-endian) data, Web/P image"),
        .init(file: "tone.flac", uti: nil, mime: "audio/flac", description: "FLAC audio bitstream data"),
        .init(file: "tone.ogg", uti: nil, mime: "audio/ogg", description: "Ogg data, Vorbis audio"),
        // MPEG audio layer II shares MP3's MIME type but is not MP3.
        .init(file: "tone.mp2", uti: nil, mime: "audio/mpeg", description: "MPEG ADTS, layer II"),
        .init(file: "clip.webm", uti: nil, mime: "video/webm", description: "WebM"),
        .init(file: "clip.mkv", uti: nil, mime: "video/x-matroska", description: "Matroska data"),
        .init(file: "drawing.svg", uti: nil, mime: "image/svg+xml", description: "SVG Scalable Vector Graphics image"),
        .init(file: "error-page.html", uti: nil, mime: "text/html", description: "HTML document, ASCII text"),
    ]

    static let all = accepted + refused
}

/// Swift Testing has an `Attachment` of its own; in these tests the word means iOS's.
typealias Attachment = NSECore.Attachment
