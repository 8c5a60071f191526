import Foundation
import NSECore

/// Turns what a payload says about a file's type into a UTI type hint.
///
/// Vendors spell it differently: Braze's `ab.att.type` is an extension (`jpg`, `mp4`), others
/// send a MIME type or a UTI. Anything that names no accepted type gives no hint; the bytes
/// decide in any case.
enum TypeHint {
    static func uti(from value: String) -> String? {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        guard !text.isEmpty else { return nil }
        if let type = AttachmentRules.type(uti: text) { return type.uti }
        if text.contains("/") {
            // A MIME type: the unambiguous ones only (video/mpeg needs the bytes to tell v1 from v2).
            return AttachmentRules.type(mime: text, description: "")?.uti
        }
        let ext = text.hasPrefix(".") ? String(text.dropFirst()) : text
        return AttachmentRules.types.first { AttachmentRules.fileExtension(ext, matches: $0) }?.uti
    }
}
