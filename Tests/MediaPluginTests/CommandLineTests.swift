import Foundation
import NSECore
import NSETesting
import Testing

@Suite("nse run with a media pipeline")
struct CommandLineTests {
    @Test func runDownloadsTheAttachmentAndPrintsTheResult() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let folder = root.path + "/config"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            deadline: 10s
            network: { allow-private: true }
            steps:
              - media
            """.write(toFile: folder + "/media.yaml", atomically: true, encoding: .utf8)
        let payload = #"""
            {"Simulator Target Bundle":"com.example.app",
             "aps":{"alert":{"title":"Anna","body":"A photo"},"mutable-content":1},
             "fcm_options":{"image":\#(quoted(server.url("/picture.jpg")))},
             "ab":{"att":{"url":\#(quoted(server.url("/missing.png"))),"type":"png"}}}
            """#
        try payload.write(toFile: folder + "/photo.apns", atomically: true, encoding: .utf8)

        let output = try await runOffThePool([
            "run", "--pipeline", folder + "/media.yaml", "--scratch-dir", root.path + "/scratch", folder + "/photo.apns",
        ])

        #expect(output.status == 0, "\(output.stderr)")
        let result = try JSON(parsing: output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["id"] == "photo")
        #expect(result["outcome"] == "modified")
        #expect(result.value(atPath: "attachments.0.identifier") == "image")
        #expect(result.value(atPath: "attachments.0.type") == "public.jpeg")
        #expect(result.value(atPath: "attachments.0.bytes")?.numberValue?.intValue == Int(try fixtureSize("picture.jpg")))
        let file = try #require(result.value(atPath: "attachments.0.file")?.stringValue)
        #expect(file.hasPrefix(root.path + "/scratch/photo-") && file.hasSuffix("/image.jpg"))
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(result.value(atPath: "rejected.0.identifier") == "att")
        #expect(result.value(atPath: "rejected.0.reason") == "download-failed")
        #expect(result.value(atPath: "rejected.0.detail")?.stringValue?.contains("404") == true)
        #expect(result.value(atPath: "content.fcm_options.image") == .string(server.url("/picture.jpg")))
    }
}

/// Runs `nse` on a thread of its own: waiting for the process must not hold one of the few
/// threads of the concurrency pool, which other tests' deadlines need.
func runOffThePool(_ arguments: [String]) async throws -> CommandOutput {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try NSEBinary.run(arguments) })
        }
    }
}
