import Foundation
import NSECore

/// The `rewrite` step: localizes the alert as iOS would, then applies text templates, then
/// cuts overlong text.
///
/// 1. **Localize** (when a `Localizer` is given): `title-loc-key`/`title-loc-args`,
///    `subtitle-loc-key`/`subtitle-loc-args` and `loc-key`/`loc-args` are resolved and the
///    result replaces the alert's `title`, `subtitle` and `body`; the `*-loc-key` and
///    `*-loc-args` keys are removed, as the phone shows only the resolved text.
/// 2. **Templates**: each of `title`, `subtitle`, `body` is rendered over the payload as step 1
///    left it (so `{{aps.alert.title}}` is already localized). All three see the same payload,
///    not each other's results. The result is trimmed of surrounding white space; an empty
///    result leaves the field as it was.
/// 3. **Limits**: a title, subtitle or body longer than its maximum is cut (`TextLimit`).
public struct RewriteModifier: SynchronousModifier {
    /// `rewrite`, the step's name in results.
    public let name = "rewrite"
    /// Resolves `loc-key`s; `nil` leaves them for the phone.
    public var localizer: Localizer?
    /// The template for `aps.alert.title`; `nil` leaves the title alone.
    public var title: TextTemplate?
    /// The template for `aps.alert.subtitle`; `nil` leaves the subtitle alone.
    public var subtitle: TextTemplate?
    /// The template for `aps.alert.body`; `nil` leaves the body alone.
    public var body: TextTemplate?
    /// The most characters the title may have; `nil` for no limit.
    public var maxTitleLength: Int?
    /// The most characters the subtitle may have; `nil` for no limit.
    public var maxSubtitleLength: Int?
    /// The most characters the body may have; `nil` for no limit.
    public var maxBodyLength: Int?

    /// A step with the given parts; parts left `nil` do nothing.
    public init(
        localizer: Localizer? = nil, title: TextTemplate? = nil, subtitle: TextTemplate? = nil,
        body: TextTemplate? = nil, maxTitleLength: Int? = nil, maxSubtitleLength: Int? = nil,
        maxBodyLength: Int? = nil
    ) {
        self.localizer = localizer
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.maxTitleLength = maxTitleLength
        self.maxSubtitleLength = maxSubtitleLength
        self.maxBodyLength = maxBodyLength
    }

    /// An alert field and the keys that localize it.
    struct Field {
        var key: String
        var locKey: String
        var locArgs: String
    }

    static let titleField = Field(key: "title", locKey: "title-loc-key", locArgs: "title-loc-args")
    static let subtitleField = Field(key: "subtitle", locKey: "subtitle-loc-key", locArgs: "subtitle-loc-args")
    static let bodyField = Field(key: "body", locKey: "loc-key", locArgs: "loc-args")

    /// Localizes, fills templates, then applies limits (see the type's documentation).
    public func modifySynchronously(_ content: inout NotificationContent, context: ModifierContext) throws {
        if let localizer {
            for field in [Self.titleField, Self.subtitleField, Self.bodyField] {
                localize(field, in: &content, with: localizer, context: context)
            }
        }

        let payload = content.payload
        for (field, template) in [(Self.titleField, title), (Self.subtitleField, subtitle), (Self.bodyField, body)] {
            guard let template else { continue }
            let text = template.render(payload).trimmingCharacters(in: .whitespacesAndNewlines)
            // An empty result means the template's parts were all absent: keep what the sender wrote.
            if !text.isEmpty { content[alertKey: field.key] = .string(text) }
        }

        for (field, limit) in [(Self.titleField, maxTitleLength), (Self.subtitleField, maxSubtitleLength), (Self.bodyField, maxBodyLength)] {
            guard let limit, let text = content[alertKey: field.key]?.stringValue, text.count > limit else { continue }
            content[alertKey: field.key] = .string(TextLimit.truncate(text, maxCharacters: limit))
        }
    }

    func localize(_ field: Field, in content: inout NotificationContent, with localizer: Localizer, context: ModifierContext) {
        guard let keyValue = content[alertKey: field.locKey] else { return }
        guard case .string(let key) = keyValue else {
            context.warn("rewrite: aps.alert.\(field.locKey) is \(keyValue.typeDescription), not a string; it is left as it is")
            return
        }
        let arguments = self.arguments(content[alertKey: field.locArgs], name: field.locArgs, context: context)
        let lookup = localizer.lookup(key)
        if !lookup.found {
            context.warn("rewrite: \(field.locKey) \"\(key)\" is not in \(lookup.source); iOS shows the key itself")
        }
        let filled = FormatString.fill(lookup.text, arguments: arguments)
        if filled.argumentsNeeded > arguments.count {
            context.warn(
                "rewrite: \"\(key)\" takes \(filled.argumentsNeeded) argument(s) but \(field.locArgs) has \(arguments.count); "
                    + "the missing ones show as \(FormatString.missingArgument), as on iOS")
        }
        content[alertKey: field.locKey] = nil
        content[alertKey: field.locArgs] = nil
        content[alertKey: field.key] = .string(filled.text)
    }

    /// `loc-args` as the strings iOS expects; other values are used as their text, with a warning.
    func arguments(_ json: JSON?, name: String, context: ModifierContext) -> [String] {
        guard let json, !json.isNull else { return [] }
        guard case .array(let elements) = json else {
            context.warn("rewrite: aps.alert.\(name) is \(json.typeDescription), not a list of strings; it is ignored")
            return []
        }
        return elements.enumerated().map { index, element in
            switch element {
            case .string(let text): return text
            case .number(let number):
                context.warn("rewrite: aps.alert.\(name)[\(index)] is a number; APNs expects strings (used as \(number.text))")
                return number.text
            case .bool(let flag):
                context.warn("rewrite: aps.alert.\(name)[\(index)] is a boolean; APNs expects strings")
                return flag ? "true" : "false"
            default:
                context.warn("rewrite: aps.alert.\(name)[\(index)] is \(element.typeDescription); APNs expects strings")
                return FormatString.missingArgument
            }
        }
    }
}
