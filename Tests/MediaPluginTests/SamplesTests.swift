import Foundation
import NSECore
import NSETesting
import Testing

@testable import MediaPlugin

/// The media samples work as docs/media.md says, without the network.
@Suite("Media samples")
struct SamplesTests {
    static let folder = NSEBinary.packageRoot + "/Samples"

    static var payloads: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("media-") && $0.hasSuffix(".apns") }.sorted()
    }

    @Test func thereIsOneSamplePerVendorFormat() {
        #expect(Self.payloads.count == 11)
    }

    @Test(arguments: payloads)
    func sampleNamesItsMediaAtADefaultKey(_ name: String) throws {
        let request = try NotificationRequest(id: name, json: Array(try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))))
        let found = MediaLocator(keys: MediaModifier.defaultKeys).locate(in: request.payload)
        #expect(!found.references.isEmpty)
        #expect(found.warnings.isEmpty)
        #expect(found.references.allSatisfy { $0.url.hasPrefix("https://images.example.com/") })
        #expect(Pipeline.gateDecision(request.content) == nil, "the sample is mutable and has an alert")
    }

    @Test func mediaPipelineRefusesPrivateAddressesByDefault() throws {
        let pipeline = try PipelineLoader(registry: mediaRegistry).load(file: Self.folder + "/media.yaml")
        let step = try #require(pipeline.steps.first?.modifier as? MediaModifier)
        #expect(!step.downloader.configuration.allowPrivateAddresses)
        #expect(step.keys == MediaModifier.defaultKeys)
    }
}
