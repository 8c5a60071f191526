import Foundation
import Mustache
import NSECore

/// A Mustache template for notification text, rendered over the whole payload.
///
/// - `{{aps.alert.title}}`, `{{sender.name}}`: any value by its dotted path.
/// - `{{#sender}}…{{/sender}}` shows its inside when the value is there and not empty (null,
///   false, `""` and `[]` count as absent); `{{^sender}}…{{/sender}}` when it is not; a list
///   repeats the inside for each element.
/// - Nothing is HTML-escaped: notification text is plain text, so `{{x}}` and `{{{x}}}` are the same.
/// - Numbers show as written in the payload (`29273432613945685`, `1.50`).
/// - A missing value shows as nothing, as Mustache does.
public struct TextTemplate: Sendable {
    /// The template as written.
    public let source: String
    private let template: MustacheTemplate

    // Notification text is plain text: switch swift-mustache from HTML to text output.
    private static let plainText = "{{% CONTENT_TYPE: TEXT }}"

    /// Parses a template; a syntax error says where.
    public init(_ source: String) throws(RewriteError) {
        self.source = source
        do {
            // Parsed as written first so that an error's line and column are the user's own.
            _ = try MustacheTemplate(string: source)
            template = try MustacheTemplate(string: Self.plainText + source)
        } catch let error as MustacheTemplate.ParserError {
            throw RewriteError(
                .templateSyntax, Self.explain(error.error), line: error.context.lineNumber,
                column: error.context.columnNumber)
        } catch {
            throw RewriteError(.templateSyntax, "\(error)")
        }
    }

    /// Renders the template over a payload.
    public func render(_ payload: JSONObject) -> String {
        template.render(MustacheValue.object(payload))
    }

    static func explain(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect?: "a closing tag {{/…}} does not match the section it closes"
        case .unfinishedName?: "a tag is not finished; close it with }}"
        case .expectedSectionEnd?: "a section {{#…}} or {{^…}} is not closed with {{/…}}"
        case .invalidSetDelimiter?: "a {{=… …=}} delimiter change is malformed"
        case .invalidConfigVariableSyntax?, .unrecognisedConfigVariable?: "a {{%…}} pragma is not understood"
        case .transformAppliedToInheritanceSection?, .illegalTokenInsideInheritSection?, .textInsideInheritSection?:
            "template inheritance is not available in notification text"
        case nil: "\(error)"
        }
    }
}

/// Turns exact JSON into what swift-mustache renders.
enum MustacheValue {
    static func object(_ object: JSONObject) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        // A repeated name reads as its last member, as everywhere else in nse.
        for member in object { dictionary[member.key] = value(member.value) }
        return dictionary
    }

    static func value(_ json: JSON) -> Any {
        switch json {
        // NSNull stops the lookup here (it does not fall back to an outer key of that name) and is false.
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number): NumberText(text: number.text)
        case .string(let text): text.isEmpty ? EmptyText() : text
        case .array(let elements): elements.map(value)
        case .object(let object): self.object(object)
        }
    }
}

/// A number rendered as the literal the payload holds.
struct NumberText: MustacheCustomRenderable {
    let text: String
    var renderText: String { text }
    var isNull: Bool { false }
}

/// An empty string: renders as nothing and counts as absent in sections.
struct EmptyText: MustacheCustomRenderable {
    var renderText: String { "" }
    var isNull: Bool { true }
}
