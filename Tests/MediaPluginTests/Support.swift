import Foundation
import MediaPlugin
import NSECore
import NSEMagic
import NSETesting
import Testing

/// The registry a user's pipeline file is read with: the media step and libmagic validation.
let mediaRegistry = ModifierRegistry([.media]) { limits in
    MagicAttachmentValidator(sniffer: try MagicSniffer.shared(), limits: limits)
}

/// A fresh scratch root for one test's pipelines, removed with everything in it afterwards.
final class ScratchRoot: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "nse-media-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Every regular file under the root, as paths relative to it, sorted.
    func files() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// A pipeline read from YAML, its scratch directories under this root.
    func pipeline(_ yaml: String) throws -> Pipeline {
        try PipelineLoader(registry: mediaRegistry).load(text: "scratch-dir: \(path)\n" + yaml, baseDirectory: path)
    }
}

/// A mutable notification with an alert, plus `extra` members (JSON text without braces).
func notification(_ extra: String, id: String = "n1") throws -> NotificationRequest {
    let text = #"{"aps":{"alert":{"title":"Anna","body":"A photo"},"mutable-content":1},"# + extra + "}"
    return try NotificationRequest(id: id, json: Array(text.utf8))
}

/// A JSON string literal.
func quoted(_ text: String) -> String { String(decoding: JSON.string(text).serialized(), as: UTF8.self) }

/// A test server serving the media fixtures under their own names, with honest types.
func mediaServer() async throws -> TestHTTPServer {
    let server = TestHTTPServer()
    let types = [
        "picture.jpg": "image/jpeg", "picture.png": "image/png", "picture.gif": "image/gif",
        "clip.mp4": "video/mp4", "tone.mp3": "audio/mpeg", "tone.m4a": "audio/mp4", "error-page.html": "text/html",
    ]
    for (name, type) in types { server.route("/" + name, .file(path: Fixtures.media(name), contentType: type)) }
    try await server.start()
    return server
}

/// The size of a fixture file.
func fixtureSize(_ name: String) throws -> Int64 {
    let attributes = try FileManager.default.attributesOfItem(atPath: Fixtures.media(name))
    return (attributes[.size] as? NSNumber)?.int64Value ?? -1
}

/// Checks that the only files under the root are the accepted attachments, each inside the
/// notification's own scratch directory: nothing partial, nothing elsewhere.
func expectOnlyAttachments(_ result: NotificationResult, under root: ScratchRoot, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = result.attachments.map { attachment -> String in
        attachment.file.hasPrefix(root.path + "/") ? String(attachment.file.dropFirst(root.path.count + 1)) : attachment.file
    }.sorted()
    #expect(root.files() == expected, sourceLocation: sourceLocation)
    for relative in expected {
        let parts = relative.split(separator: "/")
        #expect(parts.count == 2 && parts[0].hasPrefix(result.id + "-"),
                "\(relative) is not in the notification's scratch directory", sourceLocation: sourceLocation)
    }
}
