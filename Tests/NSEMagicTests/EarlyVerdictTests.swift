import Foundation
import NSECore
import NSEMagic
import NSETesting
import Testing

@Suite struct EarlyVerdictTests {
    static let sniffer = try! MagicSniffer()

    private func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.media(name))))
    }

    @Test(arguments: FixtureCase.accepted)
    func acceptedFileIsNeverRejectedByAPrefix(_ fixture: FixtureCase) async throws {
        let data = try bytes(fixture.file)
        let verdict = Self.sniffer.earlyVerdictFunction()
        var decidedAt: Int?
        // Every length up to 64 bytes, then a sample: each length costs two libmagic calls.
        let lengths = Array(1...64) + Array(stride(from: 65, through: 700, by: 3))
        for length in lengths where length <= data.count {
            // Hundreds of libmagic calls: let the tests beside this one have a thread.
            await Task.yield()
            switch verdict(Array(data.prefix(length))) {
            case .accept(let type, let limit):
                #expect(type.uti == fixture.uti, "at \(length) bytes")
                #expect(limit == AttachmentLimits.ios[type.kind])
                if decidedAt == nil { decidedAt = length }
            case .needMoreBytes(let atLeast):
                #expect(decidedAt == nil, "undecided again at \(length) bytes")
                #expect(atLeast > length)
            case .reject(let reason, let detail):
                Issue.record("rejected at \(length) bytes: \(reason) \(detail)")
            }
        }
        // Every accepted signature is recognized within the decisive prefix (behind an ID3 tag).
        #expect(decidedAt != nil, "no verdict within \(min(data.count, 700)) bytes")
        let tag = data.starts(with: Array("ID3".utf8)) ? 10 + Int(data[9]) : 0  // the fixture's tag is tiny
        let decisive = Array(data.prefix(tag + EarlyVerdict.decisivePrefix))
        guard case .accept = verdict(decisive) else {
            Issue.record("no verdict at \(decisive.count) bytes")
            return
        }
    }

    @Test(arguments: FixtureCase.refused)
    func refusedFileIsRejectedWithinTheDecisivePrefix(_ fixture: FixtureCase) async throws {
        let data = try bytes(fixture.file)
        var rejectedAt: Int?
        for length in 1...min(data.count, EarlyVerdict.decisivePrefix) {
            await Task.yield()
            let verdict = Self.sniffer.earlyVerdict(prefix: Array(data.prefix(length)))
            if case .accept(let type, _) = verdict {
                Issue.record("accepted as \(type.uti) at \(length) bytes")
            }
            if case .reject(let reason, let detail) = verdict, rejectedAt == nil {
                #expect(reason == .unrecognizedType)
                #expect(detail.contains("not an attachment type iOS accepts"))
                rejectedAt = length
            }
        }
        #expect(rejectedAt != nil || data.count < EarlyVerdict.decisivePrefix)
    }

    @Test func htmlErrorPageIsRejectedFromItsFirstLine() throws {
        let html = try bytes("error-page.html")
        let verdict = Self.sniffer.earlyVerdict(prefix: Array(html.prefix(16)))
        guard case .reject(.unrecognizedType, let detail) = verdict else {
            Issue.record("expected a rejection, got \(verdict)")
            return
        }
        #expect(detail.hasPrefix("HTML document"))
    }

    @Test func undecidedBytesAskForMore() {
        #expect(Self.sniffer.earlyVerdict(prefix: []) == .needMoreBytes(atLeast: EarlyVerdict.decisivePrefix))
        let plainData: [UInt8] = [0x00, 0x01, 0x02, 0x03]
        #expect(Self.sniffer.earlyVerdict(prefix: plainData) == .needMoreBytes(atLeast: EarlyVerdict.decisivePrefix))
        // The same kind of bytes, once there are enough of them, are not an attachment type.
        let moreData = [UInt8](repeating: 0x01, count: EarlyVerdict.decisivePrefix)
        guard case .reject(.unrecognizedType, _) = Self.sniffer.earlyVerdict(prefix: moreData) else {
            Issue.record("512 bytes of data should be rejected")
            return
        }
    }

    @Test func theLimitIsTheKindsLimit() throws {
        let limits = AttachmentLimits(audio: 100, image: 200, video: 300)
        let png = try bytes("picture.png")
        let mp4 = try bytes("clip.mp4")
        let wav = try bytes("tone.wav")
        let png_type = try #require(AttachmentRules.type(uti: "public.png"))
        #expect(Self.sniffer.earlyVerdict(prefix: Array(png.prefix(64)), limits: limits) == .accept(png_type, limit: 200))
        guard case .accept(_, 300) = Self.sniffer.earlyVerdict(prefix: Array(mp4.prefix(64)), limits: limits),
              case .accept(_, 100) = Self.sniffer.earlyVerdict(prefix: Array(wav.prefix(64)), limits: limits)
        else {
            Issue.record("video and audio limits not applied")
            return
        }
    }

    @Test func announcedSizeOverTheLimitIsRejectedAtOnce() throws {
        let png = Array(try bytes("picture.png").prefix(64))
        #expect(Self.sniffer.earlyVerdict(prefix: png, expectedByteCount: 12_000_000)
            == .reject(.invalidFileSize, detail: "image: 12000000 > 10000000 bytes"))
        guard case .accept = Self.sniffer.earlyVerdict(prefix: png, expectedByteCount: 10_000_000) else {
            Issue.record("a PNG of exactly the limit should be accepted")
            return
        }
        #expect(Self.sniffer.earlyVerdict(prefix: png, expectedByteCount: 0)
            == .reject(.invalidFileSize, detail: "the file is empty (0 bytes)"))
    }

    /// An MP3 whose ID3 tag (as with embedded album art) is larger than a first chunk.
    private func mp3WithLargeTag(tagSize: Int) throws -> [UInt8] {
        let syncsafe = (0..<4).reversed().map { UInt8((tagSize >> (7 * $0)) & 0x7F) }
        let header: [UInt8] = [0x49, 0x44, 0x33, 0x04, 0x00, 0x00] + syncsafe
        return header + [UInt8](repeating: 0, count: tagSize) + (try bytes("tone-bare.mp3"))
    }

    @Test func largeID3TagAsksForTheBytesBehindIt() throws {
        let mp3 = try mp3WithLargeTag(tagSize: 100_000)
        #expect(Self.sniffer.earlyVerdict(prefix: Array(mp3.prefix(4096)))
            == .needMoreBytes(atLeast: 100_010 + EarlyVerdict.decisivePrefix))
        guard case .accept(let type, _) = Self.sniffer.earlyVerdict(prefix: Array(mp3.prefix(100_010 + 512))) else {
            Issue.record("the frame behind the tag should reveal MP3")
            return
        }
        #expect(type.uti == "public.mp3")
    }

    @Test func id3TagLargerThanTheAudioLimitIsRejected() throws {
        let mp3 = try mp3WithLargeTag(tagSize: 5_000)
        let limits = AttachmentLimits(audio: 4_000, image: 10_000_000, video: 50_000_000)
        #expect(Self.sniffer.earlyVerdict(prefix: Array(mp3.prefix(1024)), limits: limits)
            == .reject(.invalidFileSize, detail: "audio: ID3 tag alone is 5010 > 4000 bytes"))
    }
}
