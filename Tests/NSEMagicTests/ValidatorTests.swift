import Foundation
import NSECore
import NSEMagic
import NSETesting
import Testing

@Suite struct ValidatorTests {
    static let sniffer = try! MagicSniffer()
    let validator = MagicAttachmentValidator(sniffer: ValidatorTests.sniffer)

    @Test func everyAcceptedFixtureIsTypedAndKeptWhereItIs() throws {
        let scratch = try TemporaryDirectory()
        var attachments: [Attachment] = []
        for (index, fixture) in FixtureCase.accepted.enumerated() {
            let path = try scratch.copy(fixture: fixture.file, as: "a\(index)-\(fixture.file)")
            attachments.append(Attachment(identifier: "a\(index)", file: path))
        }
        let validation = validator.validate(attachments, scratchDirectory: scratch.path)
        #expect(validation.rejected.isEmpty)
        #expect(validation.warnings.isEmpty)
        #expect(validation.accepted.count == FixtureCase.accepted.count)
        for (accepted, fixture) in zip(validation.accepted, FixtureCase.accepted) {
            let type = try #require(AttachmentRules.type(uti: fixture.uti!))
            #expect(accepted.uti == type.uti)
            #expect(accepted.kind == type.kind)
            #expect(accepted.mime == fixture.mime)
            #expect(accepted.byteCount == Int64(try Data(contentsOf: URL(fileURLWithPath: accepted.file)).count))
            #expect(accepted.file.hasSuffix(fixture.file), "an agreeing extension is not renamed")
        }
    }

    @Test func refusedFixturesAreUnrecognizedWithLibmagicsWords() throws {
        let scratch = try TemporaryDirectory()
        let attachments = try FixtureCase.refused.map { fixture in
            Attachment(identifier: fixture.file, file: try scratch.copy(fixture: fixture.file, as: fixture.file),
                       source: "https://example.com/\(fixture.file)")
        }
        let validation = validator.validate(attachments, scratchDirectory: scratch.path)
        #expect(validation.accepted.isEmpty)
        #expect(validation.rejected.count == FixtureCase.refused.count)
        for (rejection, fixture) in zip(validation.rejected, FixtureCase.refused) {
            #expect(rejection.reason == .unrecognizedType)
            #expect(rejection.identifier == fixture.file)
            #expect(rejection.source == "https://example.com/\(fixture.file)")
            #expect(rejection.detail.hasPrefix(fixture.description))
            #expect(rejection.detail.contains(": not an attachment type iOS accepts (aiff, wav, mp3, m4a, jpg, gif, png, mpg, mp4, avi)"))
        }
    }

    @Test func binNameIsRenamedWithoutWarning() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "picture.jpg", as: "image.bin")
        let validation = validator.validate([Attachment(identifier: "image", file: path)], scratchDirectory: scratch.path)
        let accepted = try #require(validation.accepted.first)
        #expect(accepted.file == scratch.path + "/image.jpg")
        #expect(!scratch.exists("image.bin"))
        #expect(validation.warnings.isEmpty, "a .bin name claims no type: \(validation.warnings)")
    }

    @Test func pngNamedMP4IsAcceptedAsPNGAndRenamed() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "picture.png", as: "photo.mp4")
        let validation = validator.validate([Attachment(identifier: "photo", file: path)], scratchDirectory: scratch.path)
        let accepted = try #require(validation.accepted.first)
        #expect(accepted.uti == "public.png")
        #expect(accepted.kind == .image)
        #expect(accepted.file == scratch.path + "/photo.png")
        #expect(scratch.exists("photo.png"))
        #expect(!scratch.exists("photo.mp4"))
        #expect(validation.warnings == [
            "attachment \"photo\": the file name says .mp4, the bytes are public.png; renamed to photo.png",
        ])
    }

    @Test func htmlNamedJPGIsRejected() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "error-page.html", as: "image.jpg")
        let attachment = Attachment(identifier: "image", file: path, mime: "image/jpeg", source: "https://cdn.example/image.jpg")
        let validation = validator.validate([attachment], scratchDirectory: scratch.path)
        #expect(validation.accepted.isEmpty)
        let rejection = try #require(validation.rejected.first)
        #expect(rejection.reason == .unrecognizedType)
        #expect(rejection.source == "https://cdn.example/image.jpg")
        #expect(rejection.detail.hasPrefix("HTML document, ASCII text: not an attachment type iOS accepts ("))
        #expect(scratch.exists("image.jpg"), "a refused file is not renamed")
    }

    @Test func disagreeingHintAndMIMEAreWarningsAndTheBytesWin() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "clip-mpeg2.mpg", as: "clip.mpg")
        let attachment = Attachment(identifier: "clip", file: path, mime: "video/mp4",
                                    options: AttachmentOptions(typeHint: "public.mpeg"))
        let validation = validator.validate([attachment], scratchDirectory: scratch.path)
        let accepted = try #require(validation.accepted.first)
        #expect(accepted.uti == "public.mpeg-2-video")
        #expect(accepted.options.typeHint == "public.mpeg-2-video")
        #expect(accepted.file == path, ".mpg is right for MPEG-2: no rename")
        #expect(validation.warnings == [
            "attachment \"clip\": type hint public.mpeg disagrees with the bytes (public.mpeg-2-video); the hint is replaced",
            "attachment \"clip\": declared as video/mp4, the bytes are video/mpeg (public.mpeg-2-video)",
        ])
    }

    @Test func fileWithoutExtensionGetsOneSilently() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "tone.wav", as: "download")
        let validation = validator.validate([Attachment(identifier: "voice note", file: path)], scratchDirectory: scratch.path)
        #expect(validation.accepted.first?.file == scratch.path + "/voice_note.wav")
        #expect(validation.warnings.isEmpty)
    }

    @Test func renamingNeverReplacesAnotherFile() throws {
        let scratch = try TemporaryDirectory()
        try scratch.copy(fixture: "picture.gif", as: "photo.png")  // someone else's file
        let path = try scratch.copy(fixture: "picture.png", as: "photo.jpg")
        let validation = validator.validate([Attachment(identifier: "photo", file: path)], scratchDirectory: scratch.path)
        #expect(validation.accepted.first?.file == scratch.path + "/photo-2.png")
        #expect(try Self.sniffer.sniff(file: scratch.path + "/photo.png").uti == "com.compuserve.gif")
    }

    @Test func atTheLimitIsAcceptedAndOneByteMoreIsNot() throws {
        let scratch = try TemporaryDirectory()
        let limits = AttachmentLimits(audio: 8_000, image: 4_096, video: 16_384)
        let validator = MagicAttachmentValidator(sniffer: Self.sniffer, limits: limits)
        let cases: [(fixture: String, ext: String, kind: AttachmentKind)] = [
            ("picture.png", "png", .image), ("tone.wav", "wav", .audio), ("clip.mp4", "mp4", .video),
        ]
        for (fixture, ext, kind) in cases {
            let limit = Int(limits[kind])
            let atLimit = try scratch.padded(fixture: fixture, as: "\(kind)-at.\(ext)", to: limit)
            let over = try scratch.padded(fixture: fixture, as: "\(kind)-over.\(ext)", to: limit + 1)
            let validation = validator.validate(
                [Attachment(identifier: "\(kind)-at", file: atLimit), Attachment(identifier: "\(kind)-over", file: over)],
                scratchDirectory: scratch.path)
            #expect(validation.accepted.map(\.identifier) == ["\(kind)-at"])
            #expect(validation.accepted.first?.byteCount == Int64(limit))
            #expect(validation.rejected == [Rejection(
                identifier: "\(kind)-over", source: over, reason: .invalidFileSize,
                detail: "\(kind): \(limit + 1) > \(limit) bytes")])
        }
    }

    @Test func emptyFileIsAnInvalidSize() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "empty.bin", as: "image.png")
        let validation = validator.validate([Attachment(identifier: "image", file: path)], scratchDirectory: scratch.path)
        #expect(validation.rejected.map(\.reason) == [.invalidFileSize])
        #expect(validation.rejected.first?.detail == "the file is empty (0 bytes)")
    }

    @Test func missingOrOutsideFilesAreInvalidURLs() throws {
        let scratch = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let outside = try elsewhere.copy(fixture: "picture.png", as: "image.png")
        let link = scratch.path + "/link.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let attachments = [
            Attachment(identifier: "missing", file: scratch.path + "/missing.png"),
            Attachment(identifier: "outside", file: outside),
            Attachment(identifier: "link", file: link),
            Attachment(identifier: "dotdot", file: scratch.path + "/../" + (elsewhere.path as NSString).lastPathComponent + "/image.png"),
            Attachment(identifier: "directory", file: scratch.path),
        ]
        let validation = validator.validate(attachments, scratchDirectory: scratch.path)
        #expect(validation.accepted.isEmpty)
        #expect(validation.rejected.map(\.reason) == Array(repeating: .invalidURL, count: 5))
        #expect(validation.rejected[0].detail == "no file at \(scratch.path)/missing.png")
        #expect(validation.rejected[1].detail.contains("is outside the notification's scratch directory"))
        #expect(FileManager.default.fileExists(atPath: outside), "nothing outside is touched")
    }

    @Test func scratchDirectoryNamedThroughALinkIsTheDirectoryItLeadsTo() throws {
        let real = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let linked = elsewhere.path + "/scratch-link"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: real.path)
        try real.copy(fixture: "picture.png", as: "image.png")
        let outside = try elsewhere.copy(fixture: "picture.png", as: "other.png")
        let validation = validator.validate([
            Attachment(identifier: "image", file: linked + "/image.png"),
            Attachment(identifier: "other", file: linked + "/../other.png"),
        ], scratchDirectory: linked)
        #expect(validation.accepted.map(\.file) == [linked + "/image.png"])
        #expect(validation.rejected.map(\.reason) == [.invalidURL])
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test func missingScratchDirectoryRejectsEveryFile() throws {
        let validation = validator.validate(
            [Attachment(identifier: "image", file: "/nonexistent-nse-scratch/image.png")],
            scratchDirectory: "/nonexistent-nse-scratch")
        #expect(validation.rejected.map(\.reason) == [.invalidURL])
        #expect(validation.rejected.first?.detail == "the scratch directory /nonexistent-nse-scratch does not exist")
    }

    @Test func validatesThroughAModifierContext() async throws {
        let root = try TemporaryDirectory()
        let context = ModifierContext.standalone(
            request: NotificationRequest(id: "n1", payload: JSONObject()), scratchRoot: root.path)
        let scratch = try context.scratchDirectory()
        let path = scratch + "/image.mp4"
        try FileManager.default.copyItem(atPath: Fixtures.media("picture.jpg"), toPath: path)
        let validation = await validator.validate([Attachment(identifier: "image", file: path)], context: context)
        #expect(validation.accepted.first?.uti == "public.jpeg")
        #expect(validation.accepted.first?.file == scratch + "/image.jpg")
        #expect(validation.warnings.count == 1)
    }
}

@Suite struct ReadOnlyFileTests {
    @Test("a read-only file rewritten with new bytes is classified anew")
    func readOnlyFilesAreNotStale() throws {
        let sniffer = try MagicSniffer()
        let scratch = try TemporaryDirectory()
        let path = try scratch.copy(fixture: "picture.png", as: "shared")
        chmod(path, 0o444)
        #expect(try sniffer.sniff(file: path, describe: .whenNeeded).uti == "public.png")
        #expect(try sniffer.sniff(file: path, describe: .whenNeeded).uti == "public.png")
        chmod(path, 0o644)
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.media("picture.jpg"))).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o444)
        #expect(try sniffer.sniff(file: path, describe: .whenNeeded).uti == "public.jpeg")
    }
}
