/// Writes JSON as UTF-8: numbers exactly as their literal, strings with the fewest escapes
/// (quote, backslash and control characters), members in order.
public struct JSONWriter {
    /// Compact (one line, no spaces) or pretty (two-space indent, `": "`).
    public enum Style: Sendable { case compact, pretty }

    public private(set) var bytes: [UInt8] = []
    let style: Style
    var indent = 0

    public init(style: Style = .compact, capacity: Int = 512) {
        self.style = style
        bytes.reserveCapacity(capacity)
    }

    /// Appends a whole value.
    public mutating func write(_ value: JSON) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): append(number.text)
        case .string(let text): writeString(text)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            indent += 1
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline()
                write(element)
            }
            indent -= 1
            newline()
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            indent += 1
            for (position, member) in object.members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline()
                writeKey(member.key)
                write(member.value)
            }
            indent -= 1
            newline()
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends JSON text that is already valid and compact (e.g. a minified original payload).
    public mutating func writeRaw(_ json: some Collection<UInt8>) {
        bytes.append(contentsOf: json)
    }

    /// Appends `"key":` (with a space when pretty).
    public mutating func writeKey(_ key: String) {
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        if style == .pretty { bytes.append(UInt8(ascii: " ")) }
    }

    /// Appends a string literal with its escapes.
    public mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape at all: copy them whole.
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case ..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// For hand-written containers (the result writer): opens `{` or `[`.
    mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        indent += 1
    }

    /// Closes a container opened with `open`.
    mutating func close(_ bracket: UInt8) {
        indent -= 1
        newline()
        bytes.append(bracket)
    }

    /// Starts the next member or element of a hand-written container.
    mutating func separator(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline()
    }

    mutating func newline() {
        guard style == .pretty else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

extension JSON {
    /// The value as compact UTF-8 JSON text.
    public func serialized(style: JSONWriter.Style = .compact) -> [UInt8] {
        var writer = JSONWriter(style: style)
        writer.write(self)
        return writer.bytes
    }

    /// The value as JSON text.
    public func text(style: JSONWriter.Style = .compact) -> String {
        String(decoding: serialized(style: style), as: UTF8.self)
    }
}

/// Removes the whitespace between tokens of valid JSON text, leaving every token, escapes
/// included, as written. Used to give back an untouched payload byte for byte, on one line.
public func minifiedJSON(_ bytes: some Collection<UInt8>) -> [UInt8] {
    if let result = bytes.withContiguousStorageIfAvailable(minified) { return result }
    return Array(bytes).withUnsafeBufferPointer(minified)
}

private func minified(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    // Runs of bytes between whitespace are copied whole; a compact payload, the usual case,
    // is one run.
    var output: [UInt8] = []
    var runStart = 0
    var inString = false
    var escaped = false
    for (offset, byte) in bytes.enumerated() {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            continue
        }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            if output.isEmpty { output.reserveCapacity(bytes.count) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
            runStart = offset + 1
        case UInt8(ascii: "\""): inString = true
        default: break
        }
    }
    if runStart == 0 { return Array(bytes) }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    return output
}
