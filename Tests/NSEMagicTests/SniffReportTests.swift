import Foundation
import NSECore
import NSEMagic
import NSETesting
import Testing

@Suite struct SniffReportTests {
    static let sniffer = try! MagicSniffer()

    @Test func acceptedFileInOneLineAndInJSON() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "picture.png", as: "photo.bin")
        let report = Self.sniffer.report(file: path)
        #expect(report.line == "\(path)  image  public.png  image/png  310 bytes  accepted")
        #expect(report.jsonLine == """
            {"file":"\(path)","kind":"image","uti":"public.png","mime":"image/png","bytes":310,"accepted":true,\
            "reason":null,"detail":null,"description":"PNG image data, 32 x 32, 8-bit/color RGB, non-interlaced"}
            """)
    }

    @Test func refusedFileSaysWhyInLibmagicsWords() {
        let path = Fixtures.media("picture.webp")
        let report = Self.sniffer.report(file: path)
        #expect(!report.accepted)
        #expect(report.reason == .unrecognizedType)
        #expect(report.line.hasPrefix("\(path)  -  -  image/webp  526 bytes  rejected: unrecognized-type (RIFF (little-endian) data, Web/P image"))
        #expect(report.json["reason"] == "unrecognized-type")
        #expect(report.json["kind"] == .null)
    }

    @Test func oversizedEmptyAndMissingFiles() {
        let small = AttachmentLimits(audio: 1_000, image: 100, video: 1_000)
        let big = Self.sniffer.report(file: Fixtures.media("picture.png"), limits: small)
        #expect(big.line.hasSuffix("rejected: invalid-file-size (image: 310 > 100 bytes)"))
        #expect(big.uti == "public.png", "the type is still reported")

        let empty = Self.sniffer.report(file: Fixtures.media("empty.bin"))
        #expect(empty.reason == .invalidFileSize)
        #expect(empty.bytes == 0)

        let missing = Self.sniffer.report(file: "/nonexistent/x.png")
        #expect(missing.line == "/nonexistent/x.png  -  -  -  -  rejected: invalid-url (no file at /nonexistent/x.png (No such file or directory))")
        #expect(missing.json["bytes"] == .null)
    }

    @Test func manyFilesKeepTheirOrderAndColumnsAlign() async {
        let files = (FixtureCase.all + FixtureCase.all).map(\.path)
        let reports = await Self.sniffer.reports(files: files)
        #expect(reports.map(\.file) == files)
        #expect(reports.map(\.uti) == (FixtureCase.all + FixtureCase.all).map(\.uti))
        let lines = SniffReport.lines(Array(reports.prefix(3)))
        let kindColumn = lines.map { $0.range(of: "audio")?.lowerBound.utf16Offset(in: $0) }
        #expect(Set(kindColumn).count == 1, "\(lines)")
    }
}
