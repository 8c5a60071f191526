import Foundation
import NSECore
import NSETesting
import Testing

@Suite("nse sniff")
struct SniffCommandTests {
    @Test("one line per file; the bytes decide, not the name; exit 2 when any is refused")
    func lines() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nse-sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A PNG dressed as a video, and an HTML page dressed as a JPEG.
        let disguisedPNG = folder.appendingPathComponent("photo.mp4").path
        let disguisedHTML = folder.appendingPathComponent("photo.jpg").path
        try FileManager.default.copyItem(atPath: Fixtures.media("picture.png"), toPath: disguisedPNG)
        try FileManager.default.copyItem(atPath: Fixtures.media("error-page.html"), toPath: disguisedHTML)

        let accepted = try NSEBinary.run(["sniff", disguisedPNG])
        #expect(accepted.status == 0)
        #expect(accepted.stdout.contains("image  public.png  image/png  310 bytes  accepted"))

        let both = try NSEBinary.run(["sniff", disguisedPNG, disguisedHTML])
        #expect(both.status == 2)
        let lines = both.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].contains("rejected: unrecognized-type (HTML document"))
    }

    @Test("--json prints an object per file")
    func json() throws {
        let output = try NSEBinary.run(["sniff", "--json", Fixtures.media("tone.m4a"), Fixtures.media("empty.bin")])
        #expect(output.status == 2)
        let objects = try output.stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
        #expect(objects.map { $0["uti"] } == ["public.mpeg-4-audio", .null])
        #expect(objects.map { $0["reason"] } == [.null, "invalid-file-size"])
        #expect(objects[0]["kind"] == "audio")
    }
}
