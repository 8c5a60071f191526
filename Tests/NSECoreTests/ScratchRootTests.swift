import Foundation
import NSECore
import Testing

@Suite("Scratch root")
struct ScratchRootTests {
    /// A pipeline whose one step asks for its scratch directory and writes a file there.
    func pipeline(root: String) -> Pipeline {
        Pipeline(
            steps: [.init(SynchronousClosureModifier("write") { content, context in
                let directory = try context.scratchDirectory()
                FileManager.default.createFile(atPath: directory + "/note.txt", contents: Data("x".utf8))
                content.subtitle = directory
            })],
            scratchRoot: root)
    }

    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("nse-root-\(name)-\(UInt32.random(in: 0...UInt32.max))").path
    }

    @Test("a root that is a link is refused, and nothing is written through it")
    func linkRefused() async throws {
        let target = temporaryPath("target")
        let link = temporaryPath("link")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        defer {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.removeItem(atPath: target)
        }
        let result = await pipeline(root: link).process(try request())
        #expect(result.steps.first?.status == .failed)
        #expect(result.steps.first?.error?.contains("is not a directory of this user's") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test("a root removed while in use is made again, owner-only")
    func rootMadeAgain() async throws {
        let root = temporaryPath("again")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scratch = pipeline(root: root)
        let first = await scratch.process(try request(id: "a"))
        #expect(first.content.subtitle?.hasPrefix(root + "/a-") == true)
        try FileManager.default.removeItem(atPath: root)
        let second = await scratch.process(try request(id: "b"))
        #expect(second.steps.first?.status == .ok)
        #expect(second.content.subtitle?.hasPrefix(root + "/b-") == true)
        let permissions = try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o700)
    }

    @Test("a root replaced by a link after its first use is refused, and nothing is written through it")
    func replacedByLink() async throws {
        let root = temporaryPath("swapped")
        let target = temporaryPath("elsewhere")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: target)
        }
        let scratch = pipeline(root: root)
        #expect(await scratch.process(try request(id: "a")).steps.first?.status == .ok)
        try FileManager.default.removeItem(atPath: root)
        try FileManager.default.createSymbolicLink(atPath: root, withDestinationPath: target)
        let result = await scratch.process(try request(id: "b"))
        #expect(result.steps.first?.status == .failed)
        #expect(result.steps.first?.error?.contains("is not a directory of this user's") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }
}
