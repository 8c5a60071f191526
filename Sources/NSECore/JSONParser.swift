/// Why a payload could not be read, with the line and column (both from 1) where reading stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    /// The byte offset from the start of the input.
    public var offset: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Bounds that keep hostile input from costing more than a payload should.
public struct JSONLimits: Sendable, Hashable {
    /// The largest input accepted, in bytes. APNs itself refuses payloads over 4 KB (5 KB for VoIP);
    /// the default leaves room for batch wrappers and test payloads.
    public var maxBytes: Int
    /// The deepest nesting of arrays and objects.
    public var maxDepth: Int

    public init(maxBytes: Int = 1 << 20, maxDepth: Int = 128) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

extension JSON {
    /// Parses one JSON text (RFC 8259), keeping member order and number literals.
    public init(parsing bytes: some Collection<UInt8>, limits: JSONLimits = JSONLimits()) throws(JSONParseError) {
        self = try JSONReader.parse(bytes, limits: limits).value
    }

    /// Parses one JSON text from a string.
    public init(parsing text: String, limits: JSONLimits = JSONLimits()) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { JSONReader.parse($0, limits: limits) }
        self = try result.get().value
    }
}

/// A recursive-descent reader over UTF-8 bytes, bounded in depth and size.
struct JSONReader: ~Copyable {
    /// A parsed value, and whether its text had whitespace between tokens (if not, the text is
    /// already its own minified form).
    struct Parsed {
        var value: JSON
        var hadWhitespace: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    var index = 0
    var depth = 0
    var sawWhitespace = false
    /// The members and elements of the containers being read, innermost last. Each container
    /// is built from its own part once it closes, so its array is allocated once, at its size.
    var pendingMembers = PendingValues<JSONObject.Member>()
    var pendingElements = PendingValues<JSON>()

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits) throws(JSONParseError) -> Parsed {
        let result: Result<Parsed, JSONParseError>
        if let direct = bytes.withContiguousStorageIfAvailable({ parse($0, limits: limits) }) {
            result = direct
        } else {
            result = Array(bytes).withUnsafeBufferPointer { parse($0, limits: limits) }
        }
        return try result.get()
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) -> Result<Parsed, JSONParseError> {
        var reader = JSONReader(bytes: bytes, limits: limits)
        do throws(JSONParseError) {
            if bytes.count > limits.maxBytes {
                throw reader.error(
                    "the input is \(bytes.count) bytes, more than the limit of \(limits.maxBytes)",
                    at: limits.maxBytes)
            }
            reader.skipWhitespace()
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                throw reader.error("the input starts with a byte-order mark; JSON must not", at: 0)
            }
            let value = try reader.readValue()
            reader.skipWhitespace()
            if reader.index < bytes.count {
                throw reader.error("unexpected \(reader.describe(bytes[reader.index])) after the end of the JSON value")
            }
            return .success(Parsed(value: value, hadWhitespace: reader.sawWhitespace))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Values

    mutating func readValue() throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw error("the input ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("unexpected \(describe(bytes[index])) where a value was expected")
        }
    }

    mutating func readObject() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        let base = pendingMembers.count
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("the input ends inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describe(bytes[index]))")
            }
            let key = try readString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error(index < bytes.count ? "expected ':' after the member name \"\(key)\"" : "the input ends inside an object")
            }
            index += 1
            skipWhitespace()
            let value = try readValue()
            pendingMembers.push(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("the input ends inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(JSONObject(members: pendingMembers.pop(from: base)))
            default: throw error("expected ',' or '}' in an object, found \(describe(bytes[index]))")
            }
        }
    }

    mutating func readArray() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array([])
        }
        let base = pendingElements.count
        while true {
            skipWhitespace()
            let element = try readValue()
            pendingElements.push(element)
            skipWhitespace()
            guard index < bytes.count else { throw error("the input ends inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(pendingElements.pop(from: base))
            default: throw error("expected ',' or ']' in an array, found \(describe(bytes[index]))")
            }
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > limits.maxDepth {
            throw error("arrays and objects are nested more than \(limits.maxDepth) deep")
        }
    }

    // MARK: Numbers

    mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("a number must not have a leading zero", at: start)
            }
        } else {
            skipDigits()
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit in its exponent") }
            skipDigits()
        }
        return JSONNumber(uncheckedText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: Strings

    mutating func readString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try decodeUTF8(start..<index, stringStart: open)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character (\(hex(byte))) must be escaped inside a string") }
            index += 1
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("the string is not valid UTF-8", at: open)
                }
                return text
            case UInt8(ascii: "\\"):
                try readEscape(into: &scalars)
            case ..<0x20:
                throw error("a control character (\(hex(byte))) must be escaped inside a string")
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw error("the input ends inside a string that starts here", at: open)
    }

    mutating func readEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("the input ends inside an escape sequence", at: escapeStart) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("a lone high surrogate \\u\(String(scalar, radix: 16, uppercase: true)) has no low surrogate after it", at: escapeStart)
                }
                let lowStart = index
                index += 2
                let low = try readHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a high surrogate is followed by \\u\(String(low, radix: 16, uppercase: true)), which is not a low surrogate", at: lowStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a lone low surrogate \\u\(String(scalar, radix: 16, uppercase: true))", at: escapeStart)
            }
            // Checked above: never a surrogate, never above 0x10FFFF.
            buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw error("\\\(Character(Unicode.Scalar(byte))) is not a JSON escape", at: escapeStart)
        }
    }

    mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("the input ends inside a \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func decodeUTF8(_ range: Range<Int>, stringStart: Int) throws(JSONParseError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // ASCII needs no validation.
        if !slice.contains(where: { $0 >= 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw error("the string is not valid UTF-8", at: stringStart)
        }
        return text
    }

    // MARK: Helpers

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(expected) else {
            throw error("unexpected \(describe(bytes[index])) where a value was expected", at: start)
        }
        index += count
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                sawWhitespace = true
            default: return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? index, bytes.count)
        // Line and column are only needed on failure, so they are counted here, not while reading.
        var line = 1
        var lineStart = 0
        var position = 0
        while position < offset {
            if bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        position = lineStart
        while position < offset {
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        return JSONParseError(message: message, line: line, column: column, offset: offset)
    }
}

/// A stack that hands out its top part as an array of exactly that size, moving the values
/// out rather than copying them (no reference counting, no spare capacity).
struct PendingValues<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private(set) var count = 0

    mutating func push(_ value: consuming Element) {
        if count == capacity { grow() }
        (storage! + count).initialize(to: value)
        count += 1
    }

    /// Removes the values from `start` up and returns them, in order.
    mutating func pop(from start: Int) -> [Element] {
        let taken = count - start
        guard taken > 0, let storage else { return [] }
        count = start
        return Array(unsafeUninitializedCapacity: taken) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: storage + start, count: taken)
            initialized = taken
        }
    }

    private mutating func grow() {
        // Room for a usual payload's containers at once, then doubling.
        let larger = max(capacity * 2, 32)
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        if let storage {
            moved.moveInitialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = moved
        capacity = larger
    }

    deinit {
        guard let storage else { return }
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}
