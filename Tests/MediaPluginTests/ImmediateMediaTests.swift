#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NSECore
import NSETesting
import Testing

/// The media step's plain-call path (`modifyImmediately`), against the real downloader and
/// a real server: it finishes only when every file was downloaded moments ago.
@Suite("Media step without waiting")
struct ImmediateMediaTests {
    /// What the pipeline's head does with `request`: asks the media step to finish at once.
    func runImmediately(_ pipeline: Pipeline, _ request: NotificationRequest, root: ScratchRoot) throws
        -> (done: Bool, content: NotificationContent, context: ModifierContext)
    {
        let context = ModifierContext.standalone(request: request, scratchRoot: root.path)
        let media = try #require(pipeline.steps.first?.modifier)
        var content = request.content
        let done = try media.modifyImmediately(&content, context: context)
        return (done, content, context)
    }

    @Test("a URL downloaded moments ago is linked at once, validated and named as the first")
    func recentBody() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let url = quoted(server.url("/picture.png"))
        let first = await pipeline.process(try notification(#""image":\#(url)"#, id: "first"))

        // The file is the first download's body, linked (the same inode), with no second request.
        let (done, content, _) = try runImmediately(pipeline, try notification(#""image":\#(url)"#, id: "second"), root: root)
        #expect(done)
        let file = try #require(content.attachments.first?.file)
        let firstFile = try #require(first.attachments.first?.file)
        var linked = stat(), original = stat()
        #expect(stat(file, &linked) == 0 && stat(firstFile, &original) == 0)
        #expect(linked.st_ino == original.st_ino)

        let third = await pipeline.process(try notification(#""image":\#(url)"#, id: "third"))
        #expect(third.outcome == .modified)
        #expect(third.attachments.map(\.uti) == first.attachments.map(\.uti))
        #expect(third.attachments.first?.file.hasSuffix("/image.png") == true)
        #expect(server.requestCount("/picture.png") == 1)
    }

    @Test("a URL not downloaded yet is left to the step's awaited work, with nothing done")
    func notRecent() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let request = try notification(#""image":\#(quoted(server.url("/picture.png")))"#)
        let (done, content, context) = try runImmediately(pipeline, request, root: root)
        #expect(!done)
        #expect(content == request.content)
        #expect(context.warnings.isEmpty && context.rejections.isEmpty)
        #expect(root.files().isEmpty)
        #expect(server.requestCount("/picture.png") == 0)
    }

    @Test("when one of several URLs is not at hand, what was delivered at once is taken back")
    func partlyRecent() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let recent = quoted(server.url("/picture.png")), later = quoted(server.url("/picture.gif"))
        let first = await pipeline.process(try notification(#""image":\#(recent)"#, id: "first"))
        #expect(first.attachments.count == 1)

        let request = try notification(#""att":{"a":\#(recent),"b":\#(later)}"#, id: "both")
        let (done, content, context) = try runImmediately(pipeline, request, root: root)
        #expect(!done)
        #expect(content == request.content)
        #expect(context.warnings.isEmpty && context.rejections.isEmpty)
        // Only the first notification's file is left.
        #expect(root.files().count == 1)
        #expect(server.requestCount("/picture.gif") == 0)
    }
}
