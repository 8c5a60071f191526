import NSECore
import NSEPlugins
import Testing

@testable import MediaPlugin

@Suite("media step options")
struct OptionsTests {
    func load(_ yaml: String) throws -> Pipeline {
        try PipelineLoader(registry: mediaRegistry).load(text: yaml, baseDirectory: "/tmp")
    }

    func error(_ yaml: String) -> ConfigurationError? {
        do {
            _ = try load(yaml)
            return nil
        } catch {
            return error as? ConfigurationError
        }
    }

    @Test func defaultsAndConfiguredValues() throws {
        let plain = try #require(try load("steps: [media]").steps.first?.modifier as? MediaModifier)
        #expect(plain.keys == MediaModifier.defaultKeys)
        #expect(plain.maxAttachments == 10)
        #expect(plain.limits == .ios)
        #expect(!plain.downloader.configuration.allowPrivateAddresses)

        let configured = try #require(try load("""
            limits: { image: 2MB }
            network: { allow-private: true }
            steps:
              - media: { keys: [a.b, c], max-attachments: 2 }
            """).steps.first?.modifier as? MediaModifier)
        #expect(configured.keys == ["a.b", "c"])
        #expect(configured.maxAttachments == 2)
        #expect(configured.limits.image == 2_000_000)
        #expect(configured.downloader.configuration.allowPrivateAddresses)
    }

    @Test("one downloader per network policy, shared by every pipeline")
    func downloadersAreShared() throws {
        let a = try #require(try load("steps: [media]").steps.first?.modifier as? MediaModifier)
        let b = try #require(try load("steps: [{media: {keys: [x]}}]").steps.first?.modifier as? MediaModifier)
        let open = try #require(try load("network: {allow-private: true}\nsteps: [media]").steps.first?.modifier as? MediaModifier)
        #expect(a.downloader === b.downloader)
        #expect(a.downloader !== open.downloader)
    }

    @Test func badOptionsNameTheirPath() {
        #expect(error("steps: [{media: {allow-private: true}}]")?.path == "steps[0].media.allow-private")
        #expect(error("steps: [{media: {max-attachments: 0}}]")?.path == "steps[0].media.max-attachments")
        #expect(error("steps: [{media: {keys: []}}]")?.path == "steps[0].media.keys")
        #expect(error("steps: [{media: {keys: [a, '']}}]")?.path == "steps[0].media.keys[1]")
    }

    @Test func theStandardRegistryHasMedia() {
        #expect(ModifierRegistry.standard.plugin(named: "media") != nil)
    }
}
