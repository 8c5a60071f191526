import Foundation

/// Fills a localized format string with `loc-args`, as iOS does for a notification.
///
/// Supported: `%@`, positional `%1$@`, `%d`, `%i`, `%u`, `%x`, `%X`, `%o`, `%f`, `%e`, `%g`,
/// `%c`, `%s`, `%%`, with flags, width, precision and the length modifiers `hh`, `h`, `l`,
/// `ll`, `q`, `z`, `t`, `j`, `L` (`%ld`, `%lu`, `%lld`, `%1$lu`).
///
/// `loc-args` are strings, so a numeric specifier reads its number from the string:
/// `%d` with `"3"` shows `3`, `%.1f` with `"2.25"` shows `2.2`, text that is not a number shows 0.
/// A specifier with no argument shows `(null)`, as iOS does for a nil object; arguments no
/// specifier uses are ignored. A `%` that starts no valid specifier is kept as written.
public enum FormatString {
    /// The filled-in text and how the arguments were used.
    public struct Filled: Sendable, Hashable {
        /// The text to show.
        public var text: String
        /// How many arguments the format asks for (the highest position used).
        public var argumentsNeeded: Int
    }

    /// What a specifier with no argument shows.
    public static let missingArgument = "(null)"

    /// The widest field and the longest precision honoured. A format string can come from the
    /// sender (a `loc-key` missing from the strings is shown as itself), so `%999999@` must not
    /// cost a megabyte.
    public static let maxFieldWidth = 256

    /// The most characters a filled-in text may reach; filling stops there. No notification
    /// shows more, and a hostile format cannot grow it without end.
    public static let maxOutputScalars = 16_384

    /// Fills `format` with `arguments`.
    public static func fill(_ format: String, arguments: [String]) -> Filled {
        let scalars = Array(format.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        var nextSequential = 0
        var needed = 0
        // Counted as it grows: a String.UnicodeScalarView counts itself by walking.
        var written = 0
        while index < scalars.count, written < maxOutputScalars {
            let scalar = scalars[index]
            guard scalar == "%" else {
                output.append(scalar)
                written += 1
                index += 1
                continue
            }
            guard let spec = Specifier.parse(scalars, from: index + 1) else {
                output.append(scalar)
                written += 1
                index += 1
                continue
            }
            index = spec.end
            if spec.conversion == "%" {
                output.append("%")
                written += 1
                continue
            }
            let position: Int
            if let explicit = spec.position {
                position = explicit - 1
            } else {
                position = nextSequential
                nextSequential += 1
            }
            needed = max(needed, position + 1)
            let argument = arguments.indices.contains(position) ? arguments[position] : nil
            let rendered = spec.render(argument).unicodeScalars
            output.append(contentsOf: rendered)
            written += rendered.count
        }
        return Filled(text: String(String(output).unicodeScalars.prefix(maxOutputScalars)), argumentsNeeded: needed)
    }
}

/// One `%…` conversion specification.
private struct Specifier {
    var position: Int?
    var flags = ""
    var width: Int?
    var precision: Int?
    var conversion: Unicode.Scalar
    var end: Int

    static let flagCharacters: Set<Unicode.Scalar> = ["-", "+", " ", "#", "0", "'"]
    static let lengthCharacters: Set<Unicode.Scalar> = ["h", "l", "q", "L", "z", "t", "j"]
    static let conversions: Set<Unicode.Scalar> = [
        "@", "d", "i", "u", "x", "X", "o", "f", "F", "e", "E", "g", "G", "a", "A", "c", "C", "s", "S", "p", "%",
    ]

    /// Parses what follows a `%`; `nil` when it is not a specifier.
    static func parse(_ scalars: [Unicode.Scalar], from start: Int) -> Specifier? {
        var index = start
        func number() -> Int? {
            var value: Int?
            while index < scalars.count, let digit = Int(String(scalars[index])), value ?? 0 < 100_000 {
                value = (value ?? 0) * 10 + digit
                index += 1
            }
            return value
        }
        guard index < scalars.count else { return nil }
        if scalars[index] == "%" { return Specifier(conversion: "%", end: index + 1) }
        var position: Int?
        // `%2$@`: digits followed by `$` are a position, not a width.
        let save = index
        if let digits = number(), index < scalars.count, scalars[index] == "$" {
            guard digits > 0 else { return nil }
            position = digits
            index += 1
        } else {
            index = save
        }
        var flags = ""
        while index < scalars.count, flagCharacters.contains(scalars[index]) {
            flags.unicodeScalars.append(scalars[index])
            index += 1
        }
        let width = number().map { min($0, FormatString.maxFieldWidth) }
        var precision: Int?
        if index < scalars.count, scalars[index] == "." {
            index += 1
            precision = min(number() ?? 0, FormatString.maxFieldWidth)
        }
        while index < scalars.count, lengthCharacters.contains(scalars[index]) { index += 1 }
        guard index < scalars.count, conversions.contains(scalars[index]), scalars[index] != "%" else { return nil }
        return Specifier(
            position: position, flags: flags, width: width, precision: precision, conversion: scalars[index],
            end: index + 1)
    }

    func render(_ argument: String?) -> String {
        guard let argument else { return pad(FormatString.missingArgument) }
        switch conversion {
        case "d", "i":
            return printf("lld", Self.integer(argument))
        case "u", "x", "X", "o":
            return printf("ll\(Character(conversion))", UInt64(bitPattern: Self.integer(argument)))
        case "f", "F", "e", "E", "g", "G", "a", "A":
            return printf(String(Character(conversion)), Double(argument.trimmingCharacters(in: .whitespaces)) ?? 0)
        case "c", "C":
            return pad(argument.first.map(String.init) ?? "")
        default:  // @ s S p: the text itself
            return pad(argument)
        }
    }

    /// The number at the start of the text, as `strtoll` reads it; a decimal is truncated.
    static func integer(_ text: String) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int64(trimmed) { return value }
        if let value = Double(trimmed), value.isFinite, abs(value) < 9.2e18 { return Int64(value) }
        var digits = ""
        for (offset, character) in trimmed.enumerated() {
            if character.isASCII, character.isNumber || (offset == 0 && (character == "-" || character == "+")) {
                digits.append(character)
            } else {
                break
            }
        }
        return Int64(digits) ?? 0
    }

    func printf(_ conversionText: String, _ value: any CVarArg) -> String {
        // Grouping (`'`) depends on a C locale; the specifier is rebuilt without it.
        var spec = "%" + flags.filter { $0 != "'" }
        if let width { spec += String(width) }
        if let precision { spec += ".\(precision)" }
        return String(format: spec + conversionText, value)
    }

    func pad(_ text: String) -> String {
        guard let width, text.count < width else { return text }
        let padding = String(repeating: " ", count: width - text.count)
        return flags.contains("-") ? text + padding : padding + text
    }
}
