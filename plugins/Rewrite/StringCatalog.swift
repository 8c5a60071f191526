import Foundation
import NSECore

/// A string catalog (`Localizable.xcstrings`, Xcode 15 and later): JSON with a `sourceLanguage`
/// and, per key, `localizations.<language>.stringUnit.value`.
///
/// Variations are resolved without a count or a device to go by: `variations.plural` uses its
/// `other` form, `variations.device` its `iphone` form, else `other`. Substitutions are not
/// expanded.
public struct StringCatalog: Sendable {
    /// The language the keys are written in (`sourceLanguage`), e.g. `en`.
    public let sourceLanguage: String
    /// Every language some key is translated into, plus the source language.
    public let languages: Set<String>
    private let strings: [String: [String: String]]

    /// Reads the catalog at `path`.
    public init(contentsOf path: String) throws(RewriteError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RewriteError(.unreadableFile, "cannot read the string catalog: \(error.localizedDescription)", file: path)
        }
        do {
            try self.init(data: data)
        } catch {
            var error = error
            error.file = path
            throw error
        }
    }

    /// Reads a catalog's JSON.
    public init(data: Data) throws(RewriteError) {
        let root: JSON
        do {
            root = try JSON(parsing: [UInt8](data))
        } catch {
            throw RewriteError(.catalogSyntax, "not valid JSON: \(error)")
        }
        guard let source = root["sourceLanguage"]?.stringValue, !source.isEmpty else {
            throw RewriteError(.catalogSyntax, "a string catalog names its \"sourceLanguage\"")
        }
        guard let entries = root["strings"]?.objectValue else {
            throw RewriteError(.catalogSyntax, "a string catalog has a \"strings\" object")
        }
        var strings: [String: [String: String]] = [:]
        var languages: Set<String> = [source]
        for entry in entries {
            var values: [String: String] = [:]
            for localization in entry.value["localizations"]?.objectValue ?? JSONObject() {
                languages.insert(localization.key)
                if let value = Self.resolve(localization.value) { values[localization.key] = value }
            }
            strings[entry.key] = values
        }
        self.sourceLanguage = source
        self.languages = languages
        self.strings = strings
    }

    /// True when the catalog lists the key at all.
    public func contains(key: String) -> Bool { strings[key] != nil }

    /// The key's text in `language`; `nil` when that language has no text for it.
    public func value(forKey key: String, language: String) -> String? {
        strings[key]?[language]
    }

    /// The key's text in the source language: its own `stringUnit`, else the key itself, as
    /// Xcode writes the key as the source text when no source value is given.
    public func sourceValue(forKey key: String) -> String? {
        guard let values = strings[key] else { return nil }
        return values[sourceLanguage] ?? key
    }

    /// A localization's text: a `stringUnit`, or a variation resolved as described above.
    static func resolve(_ node: JSON) -> String? {
        if let value = node["stringUnit"]?["value"]?.stringValue { return value }
        guard let variations = node["variations"]?.objectValue else { return nil }
        if let plural = variations["plural"] {
            return (plural["other"] ?? plural.objectValue?.members.last?.value).flatMap(resolve)
        }
        if let device = variations["device"] {
            return (device["iphone"] ?? device["other"]).flatMap(resolve)
        }
        return nil
    }
}
