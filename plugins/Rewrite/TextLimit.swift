/// Cuts text to a number of characters the way a reader sees them.
public enum TextLimit {
    /// Marks text that was cut; it counts within the limit.
    public static let ellipsis: Character = "…"

    /// `text` when it has at most `maxCharacters` characters; otherwise its start and `…`,
    /// `maxCharacters` characters in all.
    ///
    /// Characters are Swift `Character`s (extended grapheme clusters), so a cut never splits
    /// an emoji ZWJ sequence (👩‍👩‍👧), a flag (🇫🇷), a skin-tone modifier or a letter and its
    /// combining accents. White space before the ellipsis is dropped ("Hello…", not "Hello …").
    public static func truncate(_ text: String, maxCharacters: Int) -> String {
        guard maxCharacters > 0 else { return "" }
        guard text.count > maxCharacters else { return text }
        var kept = text.prefix(maxCharacters - 1)
        while let last = kept.last, last.isWhitespace { kept.removeLast() }
        return String(kept) + String(ellipsis)
    }
}
