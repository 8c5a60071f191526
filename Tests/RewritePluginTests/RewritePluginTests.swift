import Foundation
import NSECore
import Testing
@testable import RewritePlugin

@Suite struct RewritePluginTests {
    /// Builds the step as a pipeline file in `folder` would, and runs it over `payloadText`.
    func run(_ optionsText: String, in folder: TemporaryFolder, payload payloadText: String) async throws
        -> (content: NotificationContent, warnings: [String])
    {
        let modifier = try ModifierPlugin.rewrite.make(
            try options(optionsText, baseDirectory: folder.path), PluginEnvironment(baseDirectory: folder.path))
        let request = NotificationRequest(id: "test", payload: try payload(payloadText))
        let context = ModifierContext.standalone(request: request)
        var content = request.content
        try await modifier.modify(&content, context: context)
        return (content, context.warnings)
    }

    func appStrings() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("strings/en.lproj/Localizable.strings", #"""
            /* Apple's example */
            "GAME_PLAY_REQUEST_FORMAT" = "%@ and %@ have invited you to play Monopoly";
            "INVITE_TITLE" = "Invitation from %@";
            "SALE" = "100%% off for %@";
            """#)
        try folder.write("strings/fr.lproj/Localizable.strings", #"""
            // Le jeu
            "GAME_PLAY_REQUEST_FORMAT" = "%2$@ et %1$@ vous invitent à jouer au Monopoly";
            "INVITE_TITLE" = "Invitation de \"%@\"";
            "UNREAD" = "%d messages non lus";
            """#, encoding: .utf16)
        return folder
    }

    @Test func localizesTitleAndBodyAndRemovesTheLocKeys() async throws {
        let folder = try appStrings()
        let (content, warnings) = try await run(
            #"{"localize": {"strings": "strings", "locale": "fr-CA", "development-language": "en"}}"#, in: folder,
            payload: #"""
                {"aps": {"alert": {"title-loc-key": "INVITE_TITLE", "title-loc-args": ["Jenna"],
                                   "loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Jenna", "Frank"]},
                         "mutable-content": 1}, "custom": 1}
                """#)
        #expect(content.title == #"Invitation de "Jenna""#)
        #expect(content.body == "Frank et Jenna vous invitent à jouer au Monopoly")
        #expect(content.alert?.objectValue?.keys == ["title", "body"])
        #expect(content.payload["custom"] == 1)
        #expect(warnings.isEmpty)
    }

    @Test func locKeyWinsOverPlainTextAndUnmatchedLocaleShowsKeys() async throws {
        let folder = try appStrings()
        let (content, _) = try await run(
            #"{"localize": {"strings": "strings", "locale": "fr"}}"#, in: folder,
            payload: #"{"aps": {"alert": {"title": "plain", "title-loc-key": "INVITE_TITLE", "title-loc-args": ["A"], "body": "b"}, "mutable-content": 1}}"#)
        #expect(content.title == #"Invitation de "A""#)

        let lonely = try TemporaryFolder()
        try lonely.write("strings/fr.lproj/Localizable.strings", #""HELLO" = "Bonjour";"#)
        let (unmatched, warnings) = try await run(
            #"{"localize": {"strings": "strings", "locale": "ja", "development-language": "de"}}"#, in: lonely,
            payload: #"{"aps": {"alert": {"loc-key": "HELLO"}, "mutable-content": 1}}"#)
        #expect(unmatched.body == "HELLO")
        #expect(warnings == [#"rewrite: loc-key "HELLO" is not in the strings (no localization matches ja); iOS shows the key itself"#])
    }

    @Test func numericSpecifierWithStringArgument() async throws {
        let folder = try appStrings()
        let (content, _) = try await run(
            #"{"localize": {"strings": "strings", "locale": "fr"}}"#, in: folder,
            payload: #"{"aps": {"alert": {"loc-key": "UNREAD", "loc-args": ["3"]}, "mutable-content": 1}}"#)
        #expect(content.body == "3 messages non lus")
    }

    @Test func missingKeyShowsTheKeyWithAWarning() async throws {
        let folder = try appStrings()
        let (content, warnings) = try await run(
            #"{"localize": {"strings": "strings", "locale": "fr"}}"#, in: folder,
            payload: #"{"aps": {"alert": {"loc-key": "SALE", "loc-args": ["Bob"]}, "mutable-content": 1}}"#)
        // SALE exists only in English; French is the table iOS picks.
        #expect(content.body == "SALE")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("fr.lproj/Localizable.strings") == true)
    }

    @Test func developmentLanguageAndPercent() async throws {
        let folder = try appStrings()
        let (content, _) = try await run(
            #"{"localize": {"strings": "strings", "locale": "ja-JP", "development-language": "en"}}"#, in: folder,
            payload: #"{"aps": {"alert": {"loc-key": "SALE", "loc-args": ["Bob", "extra"]}, "mutable-content": 1}}"#)
        #expect(content.body == "100% off for Bob")
    }

    @Test func tooFewArgumentsShowNullAndWarn() async throws {
        let folder = try appStrings()
        let (content, warnings) = try await run(
            #"{"localize": {"strings": "strings", "locale": "en"}}"#, in: folder,
            payload: #"{"aps": {"alert": {"loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Jenna"]}, "mutable-content": 1}}"#)
        #expect(content.body == "Jenna and (null) have invited you to play Monopoly")
        #expect(warnings.contains { $0.contains("takes 2 argument(s)") && $0.contains("has 1") })
    }

    @Test func catalogAndCJKArguments() async throws {
        let folder = try TemporaryFolder()
        try folder.write("catalog/Localizable.xcstrings", LocalizerTests.catalog)
        let (content, _) = try await run(
            #"{"localize": {"strings": "catalog/Localizable.xcstrings", "locale": "ja"}}"#, in: folder,
            payload: #"{"aps": {"alert": {"loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["太郎", "花子 🌸"]}, "mutable-content": 1}}"#)
        #expect(content.body == "花子 🌸と太郎があなたをモノポリーに招待しました")
    }

    @Test func localizeFirstThenTemplatesThenLimits() async throws {
        let folder = try appStrings()
        let (content, _) = try await run(
            #"""
            {"localize": {"strings": "strings", "locale": "en"},
             "title": "{{aps.alert.title}} · {{sender.name}}",
             "subtitle": "{{#sender.team}}Team {{sender.team}}{{/sender.team}}",
             "body": "  {{aps.alert.body}}\n",
             "max-title-length": 20}
            """#, in: folder,
            payload: #"""
                {"aps": {"alert": {"title-loc-key": "INVITE_TITLE", "title-loc-args": ["Jenna"],
                                   "subtitle": "kept", "body": "A & B <3"}, "mutable-content": 1},
                 "sender": {"name": "Jenna 👩‍👩‍👧"}}
                """#)
        // "Invitation from Jenna · Jenna 👩‍👩‍👧" cut to 20 characters.
        #expect(content.title == "Invitation from Jen…")
        #expect(content.title?.count == 20)
        // The subtitle template rendered empty: the sender's subtitle stays.
        #expect(content.subtitle == "kept")
        // Trimmed, not escaped.
        #expect(content.body == "A & B <3")
    }

    @Test func templatesOnAStringAlert() async throws {
        let folder = try TemporaryFolder()
        let (content, _) = try await run(
            #"{"title": "{{sender}}", "max-body-length": 10}"#, in: folder,
            payload: #"{"aps": {"alert": "A very long plain alert 🇫🇷🇫🇷", "mutable-content": 1}, "sender": "Bob"}"#)
        #expect(content.title == "Bob")
        #expect(content.body == "A very lo…")
    }

    @Test func templateErrorsAreConfigurationErrorsWithTheKeyPath() throws {
        let folder = try TemporaryFolder()
        #expect {
            try ModifierPlugin.rewrite.make(
                try options(#"{"title": "{{aps.alert.title}}", "body": "Hi {{#sender}}{{name}}"}"#, baseDirectory: folder.path),
                PluginEnvironment(baseDirectory: folder.path))
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.path == "steps[1].rewrite.body"
                && error.description.hasPrefix("steps[1].rewrite.body: the template does not parse: line 1, column")
        }
    }

    @Test func optionErrorsNameTheirKey() throws {
        let folder = try appStrings()
        func failure(_ text: String) -> ConfigurationError? {
            do {
                _ = try ModifierPlugin.rewrite.make(
                    try options(text, baseDirectory: folder.path), PluginEnvironment(baseDirectory: folder.path))
                return nil
            } catch {
                return error as? ConfigurationError
            }
        }
        #expect(failure(#"{"titel": "x"}"#)?.path == "steps[1].rewrite.titel")
        #expect(failure(#"{"max-body-length": 0}"#)?.path == "steps[1].rewrite.max-body-length")
        #expect(failure(#"{"localize": {"strings": "nowhere", "locale": "fr"}}"#)?.path == "steps[1].rewrite.localize.strings")
        #expect(failure(#"{"localize": {"strings": "strings"}}"#)?.path == "steps[1].rewrite.localize")
        #expect(failure("{}")?.path == "steps[1].rewrite")

        try folder.write("bad/en.lproj/Localizable.strings", "\"a\" = \"b\"\n\"c\" = \"d\";")
        let bad = failure(#"{"localize": {"strings": "bad", "locale": "en"}}"#)
        #expect(bad?.path == "steps[1].rewrite.localize.strings")
        #expect(bad?.message.contains("line 2") == true)
    }

    @Test func worksThroughAPipelineFile() async throws {
        let folder = try appStrings()
        try folder.write("pipeline.yaml", """
            steps:
              - rewrite:
                  localize: { strings: strings, locale: fr-CA, development-language: en }
                  title: "{{aps.alert.title}}!"
            """)
        let loader = PipelineLoader(registry: ModifierRegistry([.rewrite]))
        let pipeline = try loader.load(file: (folder.path as NSString).appendingPathComponent("pipeline.yaml"))
        let request = NotificationRequest(id: "1", payload: try payload(#"""
            {"aps": {"alert": {"title-loc-key": "INVITE_TITLE", "title-loc-args": ["Ana"], "body": "b"}, "mutable-content": 1}}
            """#))
        let result = await pipeline.process(request)
        #expect(result.content.title == #"Invitation de "Ana"!"#)
    }
}
