import NSECore
import Testing

@Suite("Payload lint")
struct LintTests {
    func lint(_ text: String) throws -> [String] {
        let payload = try #require(JSON(parsing: text).objectValue)
        return PayloadLinter.lint(payload, byteCount: text.utf8.count)
    }

    @Test("a clean payload has no warnings")
    func clean() throws {
        #expect(try lint(#"{"aps":{"alert":{"title":"a","body":"b"},"badge":1,"sound":"default","mutable-content":1},"x":1}"#).isEmpty)
    }

    @Test("mutable-content as a string, a boolean, or another number")
    func mutableContent() throws {
        #expect(try lint(#"{"aps":{"alert":"a","mutable-content":"1"}}"#) == [
            "aps.mutable-content is the string \"1\"; APNs expects the number 1, and iOS will not run the extension"
        ])
        #expect(try lint(#"{"aps":{"alert":"a","mutable-content":true}}"#).first?.contains("boolean true") == true)
        #expect(try lint(#"{"aps":{"alert":"a","mutable-content":2}}"#).first?.contains("is 2") == true)
    }

    @Test("mutable-content without alert text")
    func noAlert() throws {
        #expect(try lint(#"{"aps":{"mutable-content":1}}"#).first?.contains("no alert") == true)
        #expect(try lint(#"{"aps":{"alert":{"launch-image":"x"},"mutable-content":1}}"#).contains {
            $0.contains("no title, subtitle or body")
        })
    }

    @Test("wrong value types")
    func types() throws {
        let warnings = try lint(#"""
            {"aps":{"alert":{"title":5,"loc-args":"x"},"badge":"3","sound":7,"category":1,
            "interruption-level":"urgent","relevance-score":2,"content-available":"1"}}
            """#)
        let expected = [
            "aps.alert.title is a number; it must be a string",
            "aps.alert.loc-args is a string; it must be an array of strings",
            "aps.badge is the string \"3\"; it must be a whole number",
            "aps.sound is the number 7; it must be a file name or a dictionary",
            "aps.content-available is the string \"1\"; APNs expects the number 1",
            "aps.category is the number 1; it must be a string",
            "aps.interruption-level is \"urgent\"; it must be one of passive, active, time-sensitive, critical",
            "aps.relevance-score is 2.0; it must be between 0 and 1",
        ]
        for warning in expected {
            #expect(warnings.contains(warning), "missing: \(warning)")
        }
    }

    @Test("unknown aps keys, unknown alert keys, repeated keys")
    func unknownKeys() throws {
        let warnings = try lint(#"{"aps":{"alert":{"titel":"x","body":"b"},"image":"u","badge":1,"badge":2}}"#)
        #expect(warnings.contains("aps.image is not a key APNs defines; custom data belongs outside aps"))
        #expect(warnings.contains("aps.alert.titel is not a key APNs defines for an alert"))
        #expect(warnings.contains("aps.badge appears more than once; only the last value counts"))
    }

    @Test("over 4096 bytes")
    func size() throws {
        let big = String(repeating: "x", count: 4100)
        #expect(try lint(#"{"aps":{"alert":"a"},"pad":"\#(big)"}"#).first?.contains("APNs refuses payloads over 4096 bytes") == true)
    }

    @Test("no aps at all")
    func noAPS() throws {
        #expect(try lint(#"{"data":1}"#) == ["the payload has no aps dictionary; iOS shows nothing and runs no extension"])
    }
}
