import Foundation
import NSECore
import NSEMagic
import NSETesting
import Testing

@Suite struct SnifferTests {
    static let sniffer = try! MagicSniffer()

    @Test(arguments: FixtureCase.all)
    func fixtureIsClassifiedAsIOSRulesSay(_ fixture: FixtureCase) throws {
        let result = try Self.sniffer.sniff(file: fixture.path)
        #expect(result.mime == fixture.mime)
        #expect(result.description?.hasPrefix(fixture.description) == true, "libmagic said: \(result.description ?? "-")")
        #expect(result.uti == fixture.uti)
        #expect(result.isSupported == (fixture.uti != nil))
        let size = try FileManager.default.attributesOfItem(atPath: fixture.path)[.size] as? Int
        #expect(result.byteCount == Int64(size ?? -1))
        if let uti = fixture.uti {
            #expect(result.type == AttachmentRules.type(uti: uti))
        }
    }

    @Test(arguments: FixtureCase.all)
    func agreesWithFileCommand(_ fixture: FixtureCase) throws {
        let file = "/usr/bin/file"
        try #require(FileManager.default.isExecutableFile(atPath: file), "file(1) is not installed")
        let result = try Self.sniffer.sniff(file: fixture.path)
        #expect(try run(file, "-b", "--mime-type", fixture.path) == result.mime)
        #expect(try run(file, "-b", fixture.path) == result.description)
    }

    @Test(arguments: FixtureCase.all)
    func describingOnlyWhenNeededDecidesTheSame(_ fixture: FixtureCase) throws {
        let full = try Self.sniffer.sniff(file: fixture.path)
        let lean = try Self.sniffer.sniff(file: fixture.path, describe: .whenNeeded)
        #expect(lean.type == full.type)
        #expect(lean.mime == full.mime)
        // Only an accepted type that its MIME type names on its own goes without a description.
        let ambiguous = ["video/mpeg", "audio/mpeg"].contains(full.mime)
        #expect((lean.description == nil) == (full.isSupported && !ambiguous))
        if lean.description != nil { #expect(lean.description == full.description) }
    }

    @Test func bytesAreClassifiedLikeTheFile() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media("picture.png"))))
        let result = try Self.sniffer.sniff(bytes: bytes)
        #expect(result.uti == "public.png")
        #expect(result.byteCount == Int64(bytes.count))
        #expect(try Self.sniffer.sniff(bytes: Array(bytes.prefix(64)), totalByteCount: 9059).byteCount == 9059)
    }

    @Test func emptyFileIsNotAnAttachmentType() throws {
        let result = try Self.sniffer.sniff(file: Fixtures.media("empty.bin"))
        #expect(result.byteCount == 0)
        #expect(!result.isSupported)
        #expect(!result.fits(.ios))
    }

    @Test func missingFileThrowsFileNotFound() {
        #expect { try Self.sniffer.sniff(file: Fixtures.media("no-such-file.png")) } throws: { error in
            (error as? MagicError)?.code == .fileNotFound
        }
    }

    @Test func directoryThrowsNotARegularFile() {
        #expect { try Self.sniffer.sniff(file: Fixtures.media("")) } throws: { error in
            (error as? MagicError)?.code == .notARegularFile
        }
    }

    @Test func missingDatabaseFailsAtInit() {
        #expect { try MagicSniffer(databasePath: "/nonexistent/magic.mgc") } throws: { error in
            (error as? MagicError)?.code == .loadFailed
        }
    }

    private func run(_ executable: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
