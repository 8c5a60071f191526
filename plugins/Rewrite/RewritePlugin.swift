import NSECore

extension ModifierPlugin {
    /// `rewrite`: localizes `loc-key`s, applies Mustache templates to the title, subtitle and
    /// body, and cuts overlong text. See `RewriteModifier` and docs/rewrite.md.
    ///
    /// ```yaml
    /// - rewrite:
    ///     title: "{{aps.alert.title}} · {{sender.name}}"
    ///     localize: { strings: strings, locale: fr-CA, development-language: en }
    ///     max-body-length: 120
    /// ```
    public static let rewrite = ModifierPlugin(
        name: "rewrite", summary: "localizes loc-keys, fills title/subtitle/body templates, limits text length"
    ) { options, _ in
        try RewriteOptions.make(options)
    }
}

/// Reads the `rewrite` step's options.
enum RewriteOptions {
    static let keys = ["title", "subtitle", "body", "localize", "max-title-length", "max-subtitle-length", "max-body-length"]

    static func make(_ options: ConfigValue) throws(ConfigurationError) -> RewriteModifier {
        try options.checkKeys(keys)
        var modifier = RewriteModifier()
        modifier.title = try template(options["title"])
        modifier.subtitle = try template(options["subtitle"])
        modifier.body = try template(options["body"])
        modifier.localizer = try localizer(options["localize"])
        modifier.maxTitleLength = try length(options["max-title-length"])
        modifier.maxSubtitleLength = try length(options["max-subtitle-length"])
        modifier.maxBodyLength = try length(options["max-body-length"])
        let doesSomething = [modifier.title, modifier.subtitle, modifier.body].contains { $0 != nil }
            || modifier.localizer != nil
            || [modifier.maxTitleLength, modifier.maxSubtitleLength, modifier.maxBodyLength].contains { $0 != nil }
        guard doesSomething else {
            throw options.error("rewrite needs at least one of: \(keys.joined(separator: ", "))")
        }
        return modifier
    }

    static func template(_ node: ConfigValue?) throws(ConfigurationError) -> TextTemplate? {
        guard let node else { return nil }
        do {
            return try TextTemplate(try node.string())
        } catch let error as RewriteError {
            throw node.error("the template does not parse: \(error)")
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw node.error("\(error)")
        }
    }

    static func localizer(_ node: ConfigValue?) throws(ConfigurationError) -> Localizer? {
        guard let node else { return nil }
        try node.checkKeys(["strings", "locale", "development-language"])
        guard let stringsNode = node["strings"] else {
            throw node.error("localize needs `strings`: a folder of <language>.lproj/Localizable.strings, or a .xcstrings file")
        }
        guard let localeNode = node["locale"] else {
            throw node.error("localize needs `locale`, the device's language, e.g. fr-CA")
        }
        let locale = try localeNode.string()
        guard !locale.isEmpty else { throw localeNode.error("expected a language tag such as fr-CA") }
        let path = try stringsNode.filePath()
        let development = try node["development-language"]?.string()
        do {
            return try Localizer(contentsOf: path, locale: locale, developmentLanguage: development)
        } catch {
            throw stringsNode.error("\(error)")
        }
    }

    static func length(_ node: ConfigValue?) throws(ConfigurationError) -> Int? {
        guard let node else { return nil }
        let value = try node.int()
        guard value > 0 else { throw node.error("a length is a number of characters, more than zero") }
        return value
    }
}
