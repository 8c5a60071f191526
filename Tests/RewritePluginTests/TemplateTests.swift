import Testing
@testable import RewritePlugin

@Suite struct TemplateTests {
    let chat = #"""
        {"aps": {"alert": {"title": "Anna", "body": "Fish & chips <tonight>?"}, "mutable-content": 1},
         "_j_msgid": 29273432613945685, "price": 1.50,
         "sender": {"name": "Anna \"Nan\" O'Hara", "emoji": "👩‍👩‍👧"},
         "tags": ["a", "b"], "empty": "", "none": null, "off": false}
        """#

    func render(_ template: String) throws -> String {
        try TextTemplate(template).render(try payload(chat))
    }

    @Test func valuesByPath() throws {
        #expect(try render("{{aps.alert.title}} · {{sender.name}}") == #"Anna · Anna "Nan" O'Hara"#)
    }

    @Test func noHTMLEscaping() throws {
        #expect(try render("{{aps.alert.body}}") == "Fish & chips <tonight>?")
        #expect(try render("{{{aps.alert.body}}}|{{&aps.alert.body}}") == "Fish & chips <tonight>?|Fish & chips <tonight>?")
        #expect(try render("{{#sender}}{{name}}{{/sender}}") == #"Anna "Nan" O'Hara"#)
    }

    @Test func numbersAsWritten() throws {
        #expect(try render("{{_j_msgid}} {{price}}") == "29273432613945685 1.50")
    }

    @Test func sectionsAndInvertedSections() throws {
        #expect(try render("{{#sender}}from {{sender.name}}{{/sender}}{{^sender}}anonymous{{/sender}}") == #"from Anna "Nan" O'Hara"#)
        #expect(try render("{{#nobody}}from {{nobody.name}}{{/nobody}}{{^nobody}}anonymous{{/nobody}}") == "anonymous")
        #expect(try render("{{#tags}}[{{.}}]{{/tags}}") == "[a][b]")
        #expect(try render("{{#empty}}x{{/empty}}{{^empty}}empty{{/empty}}") == "empty")
        #expect(try render("{{#none}}x{{/none}}{{^none}}null{{/none}}") == "null")
        #expect(try render("{{#off}}x{{/off}}{{^off}}false{{/off}}") == "false")
    }

    @Test func transformsAndZero() throws {
        #expect(try render("{{uppercased(aps.alert.title)}}") == "ANNA")
        let zero = try TextTemplate("{{#n}}count {{n}}{{/n}}").render(try payload(#"{"n": 0}"#))
        #expect(zero == "count 0")
    }

    @Test func missingValuesRenderAsNothing() throws {
        #expect(try render("[{{missing.path}}][{{none}}]") == "[][]")
    }

    @Test func nullStopsLookupInsideASection() throws {
        // `name` is null inside `who`: it must not fall back to an outer `name`.
        let text = try TextTemplate("{{#who}}{{name}}{{/who}}").render(try payload(#"{"name": "outer", "who": {"name": null}}"#))
        #expect(text == "")
    }

    @Test func parseErrorsSayWhere() {
        do {
            _ = try TextTemplate("Hello {{#sender}}{{name}}")
            Issue.record("an unclosed section parsed")
        } catch {
            #expect(error.code == .templateSyntax)
            #expect(error.line == 1)
            #expect(error.message.contains("not closed"))
        }
        #expect(throws: RewriteError.self) { try TextTemplate("{{#a}}x{{/b}}") }
        #expect(throws: RewriteError.self) { try TextTemplate("{{name") }
    }
}
