import Foundation
import NSECore
import NSEPlugins
import NSETesting
import Testing

@Suite("nse run and nse lint, as a user runs them")
struct RunCommandTests {
    func json(_ text: String) throws -> JSON {
        try JSON(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("run prints one result line; the simulator key is ignored; numbers stay exact")
    func runSample() throws {
        let output = try NSEBinary.run(["run", "Samples/chat-message.apns"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let result = try json(output.stdout)
        #expect(result["id"] == "chat-message")
        #expect(result["outcome"] == "unchanged")
        #expect(result.value(atPath: "content.Simulator Target Bundle") == nil)
        #expect(output.stdout.contains(#""_j_msgid":29273432613945685"#))
    }

    @Test("run reads standard input and --pretty prints for people")
    func stdinPretty() throws {
        let output = try NSEBinary.run(["run", "-", "--pretty", "--id", "abc"], stdin: #"{"aps":{"alert":"hi"}}"#)
        #expect(output.status == 0)
        #expect(output.stdout.contains("\n  \"outcome\": \"skipped\""))
        #expect(try json(output.stdout)["id"] == "abc")
    }

    @Test("several files give one line each, in order")
    func severalFiles() throws {
        let output = try NSEBinary.run(["run", "Samples/chat-message.apns", "Samples/silent-update.apns", "Samples/string-flag.apns"])
        #expect(output.status == 0)
        let results = try output.stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
        #expect(results.map { $0["id"] } == ["chat-message", "silent-update", "string-flag"])
        #expect(results.map { $0["reason"] } == [.null, "not-mutable", "not-mutable"])
    }

    @Test("a hung step with a 1-second deadline gives the original at the deadline")
    func deadline() throws {
        let output = try NSEBinary.run(["run", "--pipeline", "Samples/hung-extension.yaml", "Samples/chat-message.apns"])
        #expect(output.status == 0)
        let result = try json(output.stdout)
        #expect(result["outcome"] == "fallback")
        #expect(result["reason"] == "deadline")
        #expect(result.value(atPath: "content.aps.alert.title") == "Dinner plans")
        let elapsed = try #require(result["elapsedMs"]?.numberValue?.doubleValue)
        #expect(elapsed >= 1000 && elapsed < 1200)
    }

    @Test("--deadline and --on-timeout override the pipeline")
    func overrides() throws {
        let output = try NSEBinary.run([
            "run", "--pipeline", "Samples/hung-extension.yaml", "--deadline", "200ms", "--on-timeout", "best-attempt",
            "Samples/chat-message.apns",
        ])
        let result = try json(output.stdout)
        #expect(result["reason"] == "deadline")
        let elapsed = try #require(result["elapsedMs"]?.numberValue?.doubleValue)
        #expect(elapsed >= 200 && elapsed < 900)
    }

    @Test("bad JSON: exit 1, line and column on stderr, and an error result in its place")
    func badJSON() throws {
        let output = try NSEBinary.run(["run", "-"], stdin: "{\n  \"aps\": {\"alert\": \"x\",}\n}")
        #expect(output.status == 1)
        #expect(output.stderr.contains("stdin: line 2, column 24"))
        let result = try json(output.stdout)
        #expect(result["outcome"] == "error")
        #expect(result["reason"] == "invalid-payload")
        #expect(result["content"] == .null)
        #expect(result["error"]?.stringValue?.contains("line 2, column 24") == true)
    }

    @Test("every file in gets exactly one result out, in order, even when some cannot be read")
    func oneResultPerFile() throws {
        let output = try NSEBinary.run(["run", "Samples/chat-message.apns", "Samples/nope.apns", "Samples/silent-update.apns"])
        #expect(output.status == 1)
        let results = try output.stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
        #expect(results.map { $0["outcome"] } == ["unchanged", "error", "skipped"])
        #expect(results[1]["reason"] == "unreadable")
    }

    @Test("a missing file and a bad pipeline: exit 1 with what and where")
    func badInputs() throws {
        let missing = try NSEBinary.run(["run", "Samples/nope.apns"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Samples/nope.apns: cannot read the file"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("bad.yaml").path
        try "steps:\n  - delay: { duration: 1s, color: red }\n".write(toFile: pipeline, atomically: true, encoding: .utf8)
        let bad = try NSEBinary.run(["run", "--pipeline", pipeline, "Samples/chat-message.apns"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\(pipeline): steps[0].delay.color: unknown key"))
    }

    @Test("lint prints the warnings only; --strict fails on them")
    func lint() throws {
        let output = try NSEBinary.run(["lint", "Samples/string-flag.apns"])
        #expect(output.status == 0)
        #expect(output.stdout == """
            aps.mutable-content is the string "1"; APNs expects the number 1, and iOS will not run the extension
            aps.badge is the string "1"; it must be a whole number

            """)
        #expect(try NSEBinary.run(["lint", "--strict", "Samples/string-flag.apns"]).status == 2)
        let clean = try NSEBinary.run(["lint", "--strict", "Samples/chat-message.apns"])
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
    }

    @Test("the built-in pipeline is Samples/pipeline.yaml, word for word")
    func defaultPipelineText() throws {
        let sample = try String(contentsOfFile: NSEBinary.packageRoot + "/Samples/pipeline.yaml", encoding: .utf8)
        #expect(DefaultPipeline.yaml == sample)
    }

    @Test("the README's first command: every sample gives exactly one result line")
    func demo() throws {
        let samples = try FileManager.default.contentsOfDirectory(atPath: NSEBinary.packageRoot + "/Samples")
            .filter { $0.hasSuffix(".apns") }.sorted().map { "Samples/" + $0 }
        // The media samples name hosts that do not exist; the deadline bounds a slow resolver.
        let output = try NSEBinary.run(["run", "--pipeline", "Samples/demo.yaml", "--deadline", "5s"] + samples)
        #expect(output.status == 0, "\(output.stderr)")
        let results = try output.stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
        #expect(results.count == samples.count)
        let byID = Dictionary(uniqueKeysWithValues: results.map { ($0["id"]?.stringValue ?? "", $0) })
        #expect(byID["encrypted-webpush"]?.value(atPath: "content.aps.alert.body")?.stringValue?.hasPrefix("Are we still on") == true)
        #expect(byID["encrypted-webpush"]?.value(atPath: "content.enc") == nil)
        #expect(byID["localized"]?.value(atPath: "content.aps.alert.title") == "Nouvelle invitation")
        #expect(byID["chat-message"]?.value(atPath: "content.aps.alert.title") == "Dinner plans · Anna")
        #expect(byID["silent-update"]?["reason"] == "not-mutable")
    }

    @Test("the built-in pipeline is the one in Samples/pipeline.yaml")
    func defaultPipeline() throws {
        let withDefault = try NSEBinary.run(["run", "Samples/chat-message.apns"])
        let withSample = try NSEBinary.run(["run", "--pipeline", "Samples/pipeline.yaml", "Samples/chat-message.apns"])
        func steps(_ output: CommandOutput) throws -> [JSON?] {
            try json(output.stdout)["steps"]?.arrayValue?.map { $0["name"] } ?? []
        }
        #expect(try steps(withDefault) == ["media"])
        #expect(try steps(withDefault) == steps(withSample))
    }
}
