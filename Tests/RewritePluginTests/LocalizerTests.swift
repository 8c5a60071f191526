import Foundation
import Testing
@testable import RewritePlugin

@Suite struct LocalizerTests {
    func appStrings() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("en.lproj/Localizable.strings", #""HELLO" = "Hello";  "ONLY_EN" = "English only";"#)
        try folder.write("fr.lproj/Localizable.strings", #""HELLO" = "Bonjour";"#)
        try folder.write("zh-Hant.lproj/Localizable.strings", #""HELLO" = "你好";"#)
        try folder.write("Base.lproj/Localizable.strings", #""HELLO" = "Base hello";"#)
        return folder
    }

    @Test func picksTheMostSpecificLocalizationThatExists() throws {
        let folder = try appStrings()
        let frCA = try Localizer(contentsOf: folder.path, locale: "fr-CA", developmentLanguage: "en")
        #expect(frCA.language == "fr")
        #expect(frCA.lookup("HELLO").text == "Bonjour")

        let zh = try Localizer(contentsOf: folder.path, locale: "zh-Hant-TW", developmentLanguage: "en")
        #expect(zh.lookup("HELLO").text == "你好")

        let de = try Localizer(contentsOf: folder.path, locale: "de-DE", developmentLanguage: "en")
        #expect(de.language == "en")
        #expect(de.lookup("HELLO").text == "Hello")
    }

    @Test func baseIsTheLastResort() throws {
        let folder = try TemporaryFolder()
        try folder.write("Base.lproj/Localizable.strings", #""HELLO" = "Base hello";"#)
        try folder.write("fr.lproj/Localizable.strings", #""HELLO" = "Bonjour";"#)
        let localizer = try Localizer(contentsOf: folder.path, locale: "ja", developmentLanguage: "en")
        #expect(localizer.language == "Base")
        #expect(localizer.lookup("HELLO").text == "Base hello")
    }

    @Test func aMissingKeyIsShownAsTheKeyEvenWhenAnotherLanguageHasIt() throws {
        // iOS uses the table it picked; it does not borrow from the development language.
        let folder = try appStrings()
        let lookup = try Localizer(contentsOf: folder.path, locale: "fr", developmentLanguage: "en").lookup("ONLY_EN")
        #expect(lookup == .init(text: "ONLY_EN", found: false, source: "fr.lproj/Localizable.strings"))
    }

    @Test func noMatchingLocalizationShowsKeys() throws {
        let folder = try TemporaryFolder()
        try folder.write("fr.lproj/Localizable.strings", #""HELLO" = "Bonjour";"#)
        let localizer = try Localizer(contentsOf: folder.path, locale: "ja", developmentLanguage: "en")
        #expect(localizer.language == nil)
        #expect(localizer.lookup("HELLO").text == "HELLO")
        #expect(!localizer.lookup("HELLO").found)
    }

    @Test func folderNamesWithUnderscoresAndLegacyNames() throws {
        let folder = try TemporaryFolder()
        try folder.write("pt_BR.lproj/Localizable.strings", #""HELLO" = "Olá";"#)
        try folder.write("English.lproj/Localizable.strings", #""HELLO" = "Hello";"#)
        #expect(try Localizer(contentsOf: folder.path, locale: "pt-BR", developmentLanguage: nil).lookup("HELLO").text == "Olá")
        #expect(try Localizer(contentsOf: folder.path, locale: "it", developmentLanguage: "en").lookup("HELLO").text == "Hello")
    }

    static let catalog = #"""
        {
          "sourceLanguage" : "en",
          "strings" : {
            "GAME_PLAY_REQUEST_FORMAT" : {
              "localizations" : {
                "en" : { "stringUnit" : { "state" : "translated", "value" : "%@ and %@ have invited you to play Monopoly" } },
                "fr" : { "stringUnit" : { "state" : "translated", "value" : "%1$@ et %2$@ vous invitent à jouer au Monopoly" } },
                "ja" : { "stringUnit" : { "state" : "translated", "value" : "%2$@と%1$@があなたをモノポリーに招待しました" } }
              }
            },
            "UNREAD" : {
              "localizations" : {
                "en" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld unread message" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld unread messages" } }
                } } }
              }
            },
            "Not yet translated" : { },
            "EN_ONLY" : { "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "English text" } } } }
          },
          "version" : "1.0"
        }
        """#

    @Test func catalogLooksUpTheLocaleThenTheSourceLanguage() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("Localizable.xcstrings", Self.catalog)
        let fr = try Localizer(contentsOf: file, locale: "fr-CA", developmentLanguage: nil)
        #expect(fr.language == "fr")
        #expect(fr.lookup("GAME_PLAY_REQUEST_FORMAT").text == "%1$@ et %2$@ vous invitent à jouer au Monopoly")
        // No French text: Xcode compiles the source text in.
        #expect(fr.lookup("EN_ONLY").text == "English text")
        // A key with no localizations is its own source text.
        #expect(fr.lookup("Not yet translated") == .init(text: "Not yet translated", found: true, source: "Localizable.xcstrings (fr)"))
        #expect(!fr.lookup("NOWHERE").found)

        // Plural variations resolve to their `other` form.
        #expect(fr.lookup("UNREAD").text == "%lld unread messages")

        // The folder form finds the catalog too; an unknown locale uses the source language.
        let de = try Localizer(contentsOf: folder.path, locale: "de", developmentLanguage: nil)
        #expect(de.language == "en")
    }

    @Test func brokenFilesAreErrors() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("Localizable.xcstrings", #"{"strings": {}}"#)
        #expect(throws: RewriteError.self) { try Localizer(contentsOf: file, locale: "en", developmentLanguage: nil) }
        let empty = try TemporaryFolder()
        #expect { try Localizer(contentsOf: empty.path, locale: "en", developmentLanguage: nil) } throws: {
            ($0 as? RewriteError)?.code == .noLocalizations
        }
        let broken = try TemporaryFolder()
        try broken.write("en.lproj/Localizable.strings", "\"a\" = \"b\"")
        #expect { try Localizer(contentsOf: broken.path, locale: "en", developmentLanguage: nil) } throws: {
            ($0 as? RewriteError)?.code == .stringsSyntax && ($0 as? RewriteError)?.file?.hasSuffix("en.lproj/Localizable.strings") == true
        }
    }
}
