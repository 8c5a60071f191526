import Foundation

/// The order in which localizations are tried for a locale, as a bundle does when it picks a
/// `.lproj` folder: the full tag, then ever shorter ones, then the development language, then
/// `Base`.
///
/// `zh-Hant-TW` → `zh-Hant-TW`, `zh-Hant`, `zh`, then e.g. `en`, then `Base`.
/// A region that implies a script adds that script: `zh-TW` → `zh-TW`, `zh-Hant`, `zh`.
public enum LocaleFallback {
    /// The candidate language tags, most specific first, without repeats.
    public static func chain(locale: String, developmentLanguage: String?) -> [String] {
        var chain: [String] = []
        func add(_ tag: String) {
            if !chain.contains(where: { same($0, tag) }) { chain.append(tag) }
        }
        for tag in truncations(of: normalize(locale)) { add(tag) }
        if let developmentLanguage {
            for tag in truncations(of: normalize(developmentLanguage)) { add(tag) }
        }
        add("Base")
        return chain
    }

    /// `fr_CA` → `fr-CA`, `ZH-hant-tw` → `zh-Hant-TW`; drops `@…` and `-u-…` extensions.
    public static func normalize(_ tag: String) -> String {
        var text = tag.split(separator: "@", maxSplits: 1).first.map(String.init) ?? tag
        text = text.replacingOccurrences(of: "_", with: "-")
        var parts = text.split(separator: "-").map(String.init)
        if let extensionStart = parts.firstIndex(where: { $0.count == 1 }) {
            parts = Array(parts[..<extensionStart])
        }
        guard let language = parts.first else { return text }
        if let legacy = legacyNames[language.lowercased()] { return legacy }
        var result = [language.lowercased()]
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter) {
                result.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())
            } else {
                result.append(part.uppercased())
            }
        }
        return result.joined(separator: "-")
    }

    /// True when two tags name the same localization (`pt_BR` and `pt-br` do).
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        normalize(lhs).lowercased() == normalize(rhs).lowercased()
    }

    /// `zh-Hant-TW` → `zh-Hant-TW`, `zh-Hant`, `zh`; `zh-TW` → `zh-TW`, `zh-Hant`, `zh`.
    static func truncations(of tag: String) -> [String] {
        let parts = tag.split(separator: "-").map(String.init)
        var tags: [String] = []
        for length in stride(from: parts.count, through: 1, by: -1) {
            tags.append(parts.prefix(length).joined(separator: "-"))
        }
        if parts.count >= 2, parts[1].count != 4, let script = impliedScripts["\(parts[0])-\(parts[1])"] {
            tags.insert("\(parts[0])-\(script)", at: tags.count - 1)
        }
        return tags
    }

    // Regions whose writing system is not the language's default one.
    static let impliedScripts: [String: String] = [
        "zh-TW": "Hant", "zh-HK": "Hant", "zh-MO": "Hant", "zh-CN": "Hans", "zh-SG": "Hans",
    ]

    // Folder names older projects still use (`English.lproj`).
    static let legacyNames: [String: String] = [
        "english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es",
        "italian": "it", "dutch": "nl",
    ]
}
