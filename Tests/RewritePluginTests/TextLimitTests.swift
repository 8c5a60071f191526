import Testing
@testable import RewritePlugin

@Suite struct TextLimitTests {
    @Test func shortTextIsUntouched() {
        #expect(TextLimit.truncate("Hello", maxCharacters: 5) == "Hello")
    }

    @Test func ellipsisCountsWithinTheLimit() {
        let cut = TextLimit.truncate("Hello world", maxCharacters: 8)
        #expect(cut == "Hello w…")
        #expect(cut.count == 8)
        // White space before the ellipsis is dropped.
        #expect(TextLimit.truncate("Hello world", maxCharacters: 7) == "Hello…")
    }

    @Test func neverSplitsACharacter() {
        let family = "👩‍👩‍👧‍👦"  // one Character, seven scalars
        let flags = "🇫🇷🇯🇵🇺🇸"
        let accent = "e\u{301}e\u{301}e\u{301}"  // é as e + combining accent
        #expect(TextLimit.truncate(family + family + family, maxCharacters: 2) == family + "…")
        #expect(TextLimit.truncate(flags, maxCharacters: 2) == "🇫🇷…")
        #expect(TextLimit.truncate(accent, maxCharacters: 2) == "e\u{301}…")
        #expect(TextLimit.truncate("👍🏽👍🏽👍🏽", maxCharacters: 2) == "👍🏽…")
        #expect(TextLimit.truncate("日本語のテキスト", maxCharacters: 4) == "日本語…")
        for limit in 1...6 {
            let cut = TextLimit.truncate(family + flags + accent, maxCharacters: limit)
            #expect(cut.count <= limit)
            #expect(cut.unicodeScalars.allSatisfy { $0 != "\u{200D}" } || cut.contains(family))
        }
    }

    @Test func limitOfOneIsTheEllipsis() {
        #expect(TextLimit.truncate("Hello", maxCharacters: 1) == "…")
    }
}
