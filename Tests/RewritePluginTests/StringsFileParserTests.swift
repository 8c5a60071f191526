import Foundation
import Testing
@testable import RewritePlugin

@Suite struct StringsFileParserTests {
    @Test func readsWhatXcodeWrites() throws {
        let text = #"""
            /* Title of the invitation. */
            "GAME_PLAY_REQUEST_FORMAT" = "%@ and %@ have invited you to play Monopoly";

            // A line comment, then an entry on one line with odd spacing.
            "quoted"="She said \"hi\" \\ bye";
            "lines" = "one\ntwo\tthree\r";
            "unicode" = "\U00e9t\u00E9 \UD83D\UDE00";
            "octal" = "\101";
            "key only";
            unquoted_key = unquoted.value;
            "emoji 👩‍👩‍👧" = "家族 🇯🇵";
            'single' = 'it\'s'; /* trailing comment */
            """#
        let table = try StringsFileParser.parse(text: text)
        #expect(table["GAME_PLAY_REQUEST_FORMAT"] == "%@ and %@ have invited you to play Monopoly")
        #expect(table["quoted"] == #"She said "hi" \ bye"#)
        #expect(table["lines"] == "one\ntwo\tthree\r")
        #expect(table["unicode"] == "été 😀")
        #expect(table["octal"] == "A")
        #expect(table["key only"] == "key only")
        #expect(table["unquoted_key"] == "unquoted.value")
        #expect(table["emoji 👩‍👩‍👧"] == "家族 🇯🇵")
        #expect(table["single"] == "it's")
        #expect(table.count == 9)
    }

    @Test func commentsDoNotHideEntriesAndSlashesInStringsAreText() throws {
        let text = """
            "url" = "https://example.com/a//b"; // not a comment inside quotes
            /* "commented" = "out"; */
            "after" = "yes";
            """
        let table = try StringsFileParser.parse(text: text)
        #expect(table == ["url": "https://example.com/a//b", "after": "yes"])
    }

    @Test func laterEntryWins() throws {
        #expect(try StringsFileParser.parse(text: #""a" = "1"; "a" = "2";"#) == ["a": "2"])
    }

    @Test func bracedDictionary() throws {
        #expect(try StringsFileParser.parse(text: #"{ "a" = "1"; b = 2; }"#) == ["a": "1", "b": "2"])
    }

    @Test func utf16WithByteOrderMarkAsFoundationWritesIt() throws {
        // Foundation's .utf16 writes a byte-order mark, as Xcode's old strings files have.
        let text = "/* Ünïcödé */\n\"GREETING\" = \"Bonjour, %@ ! 👋\";\n\"CJK\" = \"你好\";\n"
        let data = try #require(text.data(using: .utf16))
        #expect(data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]))
        let table = try StringsFileParser.parse(data: data)
        #expect(table["GREETING"] == "Bonjour, %@ ! 👋")
        #expect(table["CJK"] == "你好")
    }

    @Test func utf16BigEndianWithMarkAndUTF8WithMark() throws {
        var bigEndian = Data([0xFE, 0xFF])
        bigEndian.append(try #require("\"k\" = \"v é\";".data(using: .utf16BigEndian)))
        #expect(try StringsFileParser.parse(data: bigEndian) == ["k": "v é"])

        var utf8 = Data([0xEF, 0xBB, 0xBF])
        utf8.append(Data("\"k\" = \"v\";".utf8))
        #expect(try StringsFileParser.parse(data: utf8) == ["k": "v"])
    }

    @Test func syntaxErrorsSayWhere() {
        do {
            _ = try StringsFileParser.parse(text: "\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";")
            Issue.record("a missing semicolon parsed")
        } catch {
            #expect(error.code == .stringsSyntax)
            #expect(error.line == 3)
            #expect(error.message.contains("\";\""))
        }
        #expect(throws: RewriteError.self) { try StringsFileParser.parse(text: "\"open = \"x\";") }
        #expect(throws: RewriteError.self) { try StringsFileParser.parse(text: "/* never closed") }
        #expect(throws: RewriteError.self) { try StringsFileParser.parse(text: "\"a\" = ;") }
    }

    @Test func binaryPropertyListAsInABuiltApp() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["HELLO": "Bonjour"], format: .binary, options: 0)
        #expect(try StringsFileParser.parse(data: data) == ["HELLO": "Bonjour"])
    }
}
