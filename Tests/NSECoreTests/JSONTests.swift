import NSECore
import Testing

@Suite("Exact JSON")
struct JSONTests {
    func roundTrip(_ text: String) throws -> String {
        try JSON(parsing: text).text()
    }

    @Test("numbers keep the text they were written in")
    func exactNumbers() throws {
        let text = #"{"_j_msgid":29273432613945685,"aps":{"alert":"hi"}}"#
        #expect(try roundTrip(text) == text)
        let numbers = #"[0,-0,1.0,1e400,-1.5E-7,123456789012345678901234567890,0.1,2.50]"#
        #expect(try roundTrip(numbers) == numbers)
    }

    @Test("members keep their order")
    func order() throws {
        let text = #"{"z":1,"a":2,"m":{"y":true,"b":null,"c":[]},"aps":{}}"#
        #expect(try roundTrip(text) == text)
        let value = try JSON(parsing: text)
        #expect(value.objectValue?.keys == ["z", "a", "m", "aps"])
    }

    @Test("every escape and non-BMP characters decode")
    func escapes() throws {
        let value = try JSON(parsing: #"["\"\\\/\b\f\n\r\t", "\u00e9\u4e2d", "\ud83d\ude00", "😀 中文 é"]"#)
        let strings = value.arrayValue?.compactMap(\.stringValue)
        #expect(strings == ["\"\\/\u{8}\u{c}\n\r\t", "é中", "😀", "😀 中文 é"])
        // The writer escapes only what it must and reads back the same.
        let written = value.text()
        #expect(try JSON(parsing: written) == value)
        #expect(written.contains("😀 中文 é"))
    }

    @Test("setting a member keeps its place; new members go last; nil removes")
    func objectEditing() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "x"
        object["d"] = true
        object["a"] = nil
        #expect(object.keys == ["b", "c", "d"])
        #expect(object["b"] == "x")
    }

    @Test("a repeated member reads as its last value")
    func repeatedKeys() throws {
        let value = try JSON(parsing: #"{"a":1,"a":2}"#)
        #expect(value["a"] == 2)
        #expect(value.objectValue?.repeatedKeys == ["a"])
    }

    @Test(
        "malformed input gets an error with line and column",
        arguments: [
            (#"{"aps":"#, 1, 8, "ends"),
            (#"{"a":1} x"#, 1, 9, "after the end"),
            ("{\n  \"a\": \"\\q\"\n}", 2, 9, "not a JSON escape"),
            (#"["\ud800"]"#, 1, 3, "lone high surrogate"),
            (#"["\udc00"]"#, 1, 3, "lone low surrogate"),
            (#"["\ud800\u0041"]"#, 1, 9, "not a low surrogate"),
            (#"{"a":01}"#, 1, 6, "leading zero"),
            (#"{"a":1.}"#, 1, 8, "digit after '.'"),
            (#"{'a':1}"#, 1, 2, "double quotes"),
            ("[1,\n2,\n]", 3, 1, "where a value was expected"),
            ("{\"a\":\"x\ny\"}", 1, 8, "control character"),
            ("", 1, 1, "ends"),
            ("[tru]", 1, 2, "where a value was expected"),
        ] as [(String, Int, Int, String)]
    )
    func malformed(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try JSON(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
        }
    }

    @Test("10,000 nested arrays are refused at the depth bound, not by a crash")
    func deepNesting() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect {
            _ = try JSON(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.message.contains("nested more than 128") && error.line == 1 && error.column == 129
        }
    }

    @Test("a 50 MB string is refused at the size bound")
    func hugeString() {
        // Filled in place: appending 50 million bytes one by one is slow in a debug build.
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 50_000_008)
        bytes.replaceSubrange(0..<6, with: Array(#"{"a":""#.utf8))
        bytes.replaceSubrange(50_000_006..<50_000_008, with: Array(#""}"#.utf8))
        #expect {
            _ = try JSON(parsing: bytes)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.message.contains("more than the limit of 1048576") && error.line == 1 && error.column == 1_048_577
        }
    }

    @Test("invalid UTF-8 is an error, not a replacement character")
    func invalidUTF8() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSON(parsing: bytes) }
    }

    @Test("key paths find nested, dotted and indexed members")
    func keyPaths() throws {
        let value = try JSON(parsing: #"{"fcm_options":{"image":"a"},"com.urbanairship.media_attachment":{"urls":[{"url":"b"}]}}"#)
        #expect(value.value(atPath: "fcm_options.image") == "a")
        #expect(value.value(atPath: "com.urbanairship.media_attachment.urls.0.url") == "b")
        #expect(value.value(atPath: "fcm_options.missing") == nil)
    }

    @Test("merge patch follows RFC 7386")
    func mergePatch() throws {
        // RFC 7386 Appendix A examples.
        let cases: [(String, String, String)] = [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
            (#"{"a":"foo"}"#, "null", "null"),
            (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ]
        for (target, patch, expected) in cases {
            let merged = try JSON(parsing: target).merging(patch: JSON(parsing: patch))
            #expect(merged.text() == expected, "\(target) + \(patch)")
        }
    }

    @Test("containers of every size, nested inside each other, read back in order")
    func containerSizes() throws {
        // Sizes around the reader's first stack capacity (32), each container inside the last
        // member of the one before, so several are open at once.
        var text = ""
        for size in [0, 1, 31, 32, 33, 70] {
            let members = (0..<size).map { #""k\#($0)":[\#((0..<($0 % 5)).map { "\"v\($0)\"" }.joined(separator: ","))]"# }
            text += "{" + members.joined(separator: ",") + (size > 0 ? "," : "") + #""next":"#
        }
        text += "null" + String(repeating: "}", count: 6)
        #expect(try roundTrip(text) == text)
        // Cut short with several containers open: a clear error, not a crash.
        let cut = String(text.prefix(text.count / 2))
        #expect(throws: JSONParseError.self) { try JSON(parsing: cut) }
    }

    @Test("member names compare by their UTF-8 bytes, in objects of any size")
    func namesByBytes() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        var object = JSONObject()
        object[composed] = 1
        object[decomposed] = 2
        #expect(object.count == 2)
        #expect(object[composed] == 1 && object[decomposed] == 2)
        #expect(object.repeatedKeys.isEmpty)
        var large = JSONObject(members: (0..<20).map { JSONObject.Member(key: "k\($0)", value: 0) })
        large[composed] = 1
        large[decomposed] = 2
        #expect(large.repeatedKeys.isEmpty)
        let repeated = try JSON(parsing: #"{"a":1,"a":2}"#).objectValue
        #expect(repeated?.repeatedKeys == ["a"])
    }

    @Test("a request keeps compact text as it is and minifies text with whitespace")
    func requestText() throws {
        let compact = #"{"aps":{"alert":"a \" b","mutable-content":1},"n":2.50}"#
        #expect(try NotificationRequest(id: "a", json: Array(compact.utf8)).originalText == Array(compact.utf8))
        let spaced = "{ \"aps\" : {\"alert\":\"a  b\"},\n \"n\": [ 1 ] }"
        #expect(try NotificationRequest(id: "b", json: Array(spaced.utf8)).originalText == Array(#"{"aps":{"alert":"a  b"},"n":[1]}"#.utf8))
    }

    @Test("minifying keeps every token as written")
    func minify() {
        let text = "{\n  \"a\" : \"x \\\" \\u00e9 y\",\n  \"b\" : [ 1 , 2.50 ]\n}"
        #expect(String(decoding: minifiedJSON(Array(text.utf8)), as: UTF8.self) == #"{"a":"x \" \u00e9 y","b":[1,2.50]}"#)
    }
}
