import Foundation

/// Reads a `Localizable.strings` file as Xcode and CoreFoundation do: the old-style property-list
/// grammar (`"key" = "value";`, `"key";`, unquoted words, `/* */` and `//` comments, an optional
/// enclosing `{ }`), in UTF-8 or UTF-16 (with or without a byte-order mark), or a compiled
/// XML or binary property list as found inside a built app.
public enum StringsFileParser {
    /// Reads the file at `path`.
    public static func parse(contentsOf path: String) throws(RewriteError) -> [String: String] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RewriteError(.unreadableFile, "cannot read the strings file: \(error.localizedDescription)", file: path)
        }
        do {
            return try parse(data: data)
        } catch {
            var error = error
            error.file = path
            throw error
        }
    }

    /// Reads a strings file's bytes.
    public static func parse(data: Data) throws(RewriteError) -> [String: String] {
        if data.starts(with: Array("bplist".utf8)) || isXMLPropertyList(data) {
            return try propertyList(data)
        }
        return try parse(text: try decode(data))
    }

    /// Reads a strings file's text.
    public static func parse(text: String) throws(RewriteError) -> [String: String] {
        var scanner = StringsScanner(scalars: Array(text.unicodeScalars))
        return try scanner.entries()
    }

    /// UTF-16 with a byte-order mark (what Xcode used to write), UTF-8 with or without one,
    /// and UTF-16 without a mark, recognised by its zero bytes.
    static func decode(_ data: Data) throws(RewriteError) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) {
            if let text = String(bytes: bytes.dropFirst(2), encoding: .utf16LittleEndian) { return text }
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            if let text = String(bytes: bytes.dropFirst(2), encoding: .utf16BigEndian) { return text }
        } else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            if let text = String(validating: bytes.dropFirst(3), as: UTF8.self) { return text }
        } else if let text = String(validating: bytes, as: UTF8.self) {
            return text
        } else if bytes.count >= 2, bytes.count % 2 == 0 {
            // No mark: ASCII text in UTF-16 has a zero in every other byte.
            let littleEndian = bytes[1] == 0 && bytes[0] != 0
            if let text = String(bytes: bytes, encoding: littleEndian ? .utf16LittleEndian : .utf16BigEndian) {
                return text
            }
        }
        throw RewriteError(.stringsEncoding, "the file is neither UTF-8 nor UTF-16; save it as UTF-8")
    }

    static func isXMLPropertyList(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(64), as: UTF8.self)
        return head.hasPrefix("<?xml") || head.hasPrefix("<plist")
    }

    static func propertyList(_ data: Data) throws(RewriteError) -> [String: String] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw RewriteError(.stringsSyntax, "not a readable property list: \(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw RewriteError(.stringsSyntax, "the property list is not a dictionary of strings")
        }
        return dictionary.compactMapValues { $0 as? String }
    }
}

/// The old-style property-list grammar, over Unicode scalars.
private struct StringsScanner {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        // A byte-order mark decoded as text is not part of the first key.
        if scalars.first == "\u{FEFF}" { index = 1 }
    }

    // Characters an unquoted string may hold, as in CoreFoundation's old-style parser.
    static func isUnquotedCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "+", "/", ":", ".", "-": return true
        default: return false
        }
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func entries() throws(RewriteError) -> [String: String] {
        var table: [String: String] = [:]
        try skipSpaceAndComments()
        let braced = current == "{"
        if braced { index += 1 }
        while true {
            try skipSpaceAndComments()
            guard let scalar = current else {
                if braced { throw error("the file ends before the closing \"}\"") }
                return table
            }
            if braced, scalar == "}" {
                index += 1
                try skipSpaceAndComments()
                guard current == nil else { throw error("unexpected text after the closing \"}\"") }
                return table
            }
            let key = try string(what: "a key")
            try skipSpaceAndComments()
            var value = key
            if current == "=" {
                index += 1
                try skipSpaceAndComments()
                value = try string(what: "a value after \"=\"")
                try skipSpaceAndComments()
            }
            guard current == ";" else {
                throw error("expected \";\" after the entry \"\(key)\"")
            }
            index += 1
            // As in CoreFoundation, a later entry of the same key wins.
            table[key] = value
        }
    }

    mutating func string(what: String) throws(RewriteError) -> String {
        guard let scalar = current else { throw error("expected \(what), found the end of the file") }
        if scalar == "\"" || scalar == "'" { return try quoted(scalar) }
        guard Self.isUnquotedCharacter(scalar) else {
            throw error("expected \(what), found \"\(Character(scalar))\"; quote keys and values with \"")
        }
        var text = String.UnicodeScalarView()
        while let next = current, Self.isUnquotedCharacter(next) {
            text.append(next)
            index += 1
        }
        return String(text)
    }

    mutating func quoted(_ quote: Unicode.Scalar) throws(RewriteError) -> String {
        let start = index
        index += 1
        var text = String.UnicodeScalarView()
        var pendingHighSurrogate: UInt32?
        while let scalar = current {
            index += 1
            if scalar == quote {
                if let high = pendingHighSurrogate { text.append(Self.replacement(high)) }
                return String(text)
            }
            guard scalar == "\\" else {
                if let high = pendingHighSurrogate {
                    text.append(Self.replacement(high))
                    pendingHighSurrogate = nil
                }
                text.append(scalar)
                continue
            }
            guard let escaped = current else { break }
            index += 1
            var unit: UInt32?
            switch escaped {
            case "n": unit = 0x0A
            case "t": unit = 0x09
            case "r": unit = 0x0D
            case "a": unit = 0x07
            case "b": unit = 0x08
            case "f": unit = 0x0C
            case "v": unit = 0x0B
            case "U", "u": unit = hex(maxDigits: 4)
            case "0"..."7":
                index -= 1
                unit = octal()
            default: unit = escaped.value  // \" \' \\ and any other character stand for themselves
            }
            guard let code = unit else { continue }
            // \UD83D\UDE00: a UTF-16 surrogate pair spelled as two escapes.
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                if (0xDC00...0xDFFF).contains(code) {
                    let combined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    text.append(Unicode.Scalar(combined) ?? "\u{FFFD}")
                    continue
                }
                text.append(Self.replacement(high))
            }
            if (0xD800...0xDBFF).contains(code) {
                pendingHighSurrogate = code
            } else {
                text.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            }
        }
        index = start
        throw error("a quoted string is not closed; add the missing \(Character(quote))")
    }

    static func replacement(_: UInt32) -> Unicode.Scalar { "\u{FFFD}" }

    mutating func hex(maxDigits: Int) -> UInt32? {
        var value: UInt32 = 0
        var digits = 0
        while digits < maxDigits, let scalar = current, let digit = Character(scalar).hexDigitValue {
            value = value * 16 + UInt32(digit)
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : value
    }

    mutating func octal() -> UInt32? {
        var value: UInt32 = 0
        var digits = 0
        while digits < 3, let scalar = current, ("0"..."7").contains(scalar) {
            value = value * 8 + (scalar.value - 48)
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : value
    }

    mutating func skipSpaceAndComments() throws(RewriteError) {
        while let scalar = current {
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                index += 1
            } else if scalar == "/", peek(1) == "*" {
                let start = index
                index += 2
                while current != nil, !(current == "*" && peek(1) == "/") { index += 1 }
                guard current != nil else {
                    index = start
                    throw error("a /* comment is not closed")
                }
                index += 2
            } else if scalar == "/", peek(1) == "/" {
                while let next = current, next != "\n", next != "\r" { index += 1 }
            } else {
                return
            }
        }
    }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    func error(_ message: String) -> RewriteError {
        var line = 1
        var column = 1
        for scalar in scalars[..<min(index, scalars.count)] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return RewriteError(.stringsSyntax, message, line: line, column: column)
    }
}
