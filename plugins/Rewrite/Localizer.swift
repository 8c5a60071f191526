import Foundation

/// Looks up `loc-key`s for one locale in an app's strings, laid out as in its bundle:
/// `<folder>/<language>.lproj/Localizable.strings`, or one `Localizable.xcstrings` catalog.
///
/// As a bundle does, it picks one localization, the first of the locale's fallback chain
/// (`LocaleFallback`) that exists, and looks keys up there. A key that table lacks is shown as the
/// key itself, as iOS shows it. A catalog is what Xcode compiles it into: a language without its
/// own text for a key uses the source language's text.
public struct Localizer: Sendable {
    /// The outcome of looking a key up.
    public struct Lookup: Sendable, Hashable {
        /// The text to use: the localized format string, or the key when it was not found.
        public var text: String
        /// True when the key was found.
        public var found: Bool
        /// Where it was looked up, for messages: `fr.lproj/Localizable.strings`.
        public var source: String
    }

    enum Strings: Sendable {
        case table(language: String, entries: [String: String])
        case catalog(StringCatalog, language: String)
        case none
    }

    /// The locale asked for, e.g. `fr-CA`.
    public let locale: String
    /// The localization keys are looked up in (`fr`), or `nil` when none fits the locale.
    public let language: String?
    let strings: Strings

    /// Reads the strings at `path` (a folder, or a `.xcstrings` file) for `locale`.
    /// `developmentLanguage` defaults to a catalog's source language, else `en`.
    public init(contentsOf path: String, locale: String, developmentLanguage: String?) throws(RewriteError) {
        self.locale = locale
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RewriteError(.unreadableFile, "does not exist", file: path)
        }
        let catalogPath: String?
        var tables: [String: String] = [:]  // language → Localizable.strings path
        if isDirectory.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            } catch {
                throw RewriteError(.unreadableFile, "cannot list the folder: \(error.localizedDescription)", file: path)
            }
            for name in names where name.lowercased().hasSuffix(".lproj") {
                let file = (path as NSString).appendingPathComponent("\(name)/Localizable.strings")
                if FileManager.default.fileExists(atPath: file) { tables[String(name.dropLast(6))] = file }
            }
            let catalog = (path as NSString).appendingPathComponent("Localizable.xcstrings")
            catalogPath = FileManager.default.fileExists(atPath: catalog) ? catalog : nil
            if catalogPath != nil, !tables.isEmpty {
                throw RewriteError(
                    .noLocalizations,
                    "the folder holds both Localizable.xcstrings and .lproj tables; point `strings` at one of them",
                    file: path)
            }
            if catalogPath == nil, tables.isEmpty {
                throw RewriteError(
                    .noLocalizations,
                    "no <language>.lproj/Localizable.strings and no Localizable.xcstrings in this folder",
                    file: path)
            }
        } else {
            catalogPath = path
        }

        if let catalogPath {
            let catalog = try StringCatalog(contentsOf: catalogPath)
            let chain = LocaleFallback.chain(locale: locale, developmentLanguage: developmentLanguage ?? catalog.sourceLanguage)
            let language = chain.lazy.compactMap { tag in catalog.languages.first { LocaleFallback.same($0, tag) } }.first
                ?? catalog.sourceLanguage
            self.language = language
            self.strings = .catalog(catalog, language: language)
            return
        }
        let chain = LocaleFallback.chain(locale: locale, developmentLanguage: developmentLanguage ?? "en")
        let match = chain.lazy.compactMap { tag in tables.keys.sorted().first { LocaleFallback.same($0, tag) } }.first
        guard let match, let file = tables[match] else {
            self.language = nil
            self.strings = .none
            return
        }
        self.language = match
        self.strings = .table(language: match, entries: try StringsFileParser.parse(contentsOf: file))
    }

    /// Looks a key up.
    public func lookup(_ key: String) -> Lookup {
        switch strings {
        case .table(let language, let entries):
            let source = "\(language).lproj/Localizable.strings"
            if let value = entries[key] { return Lookup(text: value, found: true, source: source) }
            return Lookup(text: key, found: false, source: source)
        case .catalog(let catalog, let language):
            let source = "Localizable.xcstrings (\(language))"
            if let value = catalog.value(forKey: key, language: language) ?? catalog.sourceValue(forKey: key) {
                return Lookup(text: value, found: true, source: source)
            }
            return Lookup(text: key, found: false, source: source)
        case .none:
            return Lookup(text: key, found: false, source: "the strings (no localization matches \(locale))")
        }
    }
}
