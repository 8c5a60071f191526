import Foundation
import NSECore
import Testing

@Suite("Pipeline configuration")
struct ConfigurationTests {
    let loader = PipelineLoader(registry: .builtins)

    func load(_ text: String, json: Bool = false) throws -> Pipeline {
        try loader.load(text: text, baseDirectory: "/tmp", json: json)
    }

    func error(_ text: String, json: Bool = false) -> ConfigurationError? {
        do {
            _ = try load(text, json: json)
            return nil
        } catch {
            return error as? ConfigurationError
        }
    }

    @Test("YAML and JSON read the same keys")
    func sameKeys() throws {
        let yaml = try load("""
            deadline: 2.5s
            on-timeout: best-attempt
            limits: { image: 2MB, audio: 512KiB }
            network: { allow-private: true }
            steps:
              - delay: { duration: 10ms, on-error: original }
              - delay: { duration: 1s }
            """)
        let json = try load(#"{"deadline":"2.5s","on-timeout":"best-attempt","limits":{"image":"2MB","audio":"512KiB"},"network":{"allow-private":true},"steps":[{"delay":{"duration":"10ms","on-error":"original"}},{"delay":{"duration":"1s"}}]}"#, json: true)
        for pipeline in [yaml, json] {
            #expect(pipeline.deadline == .milliseconds(2500))
            #expect(pipeline.onTimeout == .bestAttempt)
            #expect(pipeline.steps.map(\.modifier.name) == ["delay", "delay"])
            #expect(pipeline.steps.map(\.onError) == [.original, .skip])
            #expect((pipeline.steps[0].modifier as? DelayModifier)?.duration == .milliseconds(10))
        }
    }

    @Test(
        "errors name the key path",
        arguments: [
            ("deadlin: 3s", "deadlin", "unknown key"),
            ("deadline: soon", "deadline", "expected a duration"),
            ("on-timeout: never", "on-timeout", "\"never\" is not one of \"original\", \"best-attempt\""),
            ("limits: { image: lots }", "limits.image", "expected a size"),
            ("limits: { photo: 1MB }", "limits.photo", "unknown key"),
            ("network: { allow-private: yes }", "network.allow-private", "expected true or false"),
            ("steps: [ { nope: {} } ]", "steps[0].nope", "no plugin is named \"nope\""),
            ("steps: [ delay ]", "steps[0].delay", "delay needs a duration"),
            ("steps: [ { delay: { duration: 1s, speed: 2 } } ]", "steps[0].delay.speed", "unknown key"),
            ("steps: [ { delay: { duration: 1s, on-error: ignore } } ]", "steps[0].delay.on-error", "not one of"),
            ("steps: [ { delay: {duration: 1s}, media: {} } ]", "steps[0]", "one key"),
            ("steps: { delay: 1 }", "steps", "expected a list"),
        ]
    )
    func keyPaths(text: String, path: String, message: String) {
        let error = error(text)
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("bad YAML and JSON are errors, not crashes")
    func syntax() {
        #expect(error("steps: [ {").map { $0.message.hasPrefix("not valid YAML") } == true)
        #expect(error("{\"steps\": ", json: true).map { $0.message.hasPrefix("not valid JSON") } == true)
    }

    @Test("a file's errors name the file; relative paths are read against its folder")
    func fromFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nse-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.yaml")
        try "scratch-dir: out\ndeadline: 1s\n".write(to: file, atomically: true, encoding: .utf8)
        let pipeline = try loader.load(file: file.path)
        #expect(pipeline.scratchRoot == folder.appendingPathComponent("out").path)
        try "deadline: 0s\n".write(to: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try loader.load(file: file.path)
        } throws: { error in
            "\(error)" == "\(file.path): deadline: the deadline must be more than zero"
        }
    }

    @Test("durations and sizes")
    func units() {
        #expect(parseDuration("1e10s") == nil)
        #expect(parseDuration("3000000h") == nil)
        #expect(parseDuration("30s") == .seconds(30))
        #expect(parseDuration("250ms") == .milliseconds(250))
        #expect(parseDuration("2m") == .seconds(120))
        #expect(parseDuration("1.5") == .milliseconds(1500))
        #expect(parseDuration("fast") == nil)
        #expect(parseByteSize("5MB") == 5_000_000)
        #expect(parseByteSize("5 MiB") == 5_242_880)
        #expect(parseByteSize("512KB") == 512_000)
        #expect(parseByteSize("1000") == 1000)
        #expect(parseByteSize("-1MB") == nil)
    }
}
