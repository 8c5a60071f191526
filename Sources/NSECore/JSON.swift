#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value that keeps what a payload's author wrote: object members stay in order and
/// numbers stay as the text they were written in, so untouched parts round-trip exactly
/// (`29273432613945685` does not become `29273432613945684` as it would through a `Double`).
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as its literal text (valid JSON number grammar).
    case number(JSONNumber)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// A JSON number kept as its literal text.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, e.g. `29273432613945685`, `-1.5e3`.
    public let text: String

    /// Wraps a literal the parser has already checked.
    init(uncheckedText text: String) { self.text = text }

    /// A number from an integer.
    public init<I: BinaryInteger>(_ value: I) { self.text = String(value) }

    /// A number from a finite double, written in the shortest form that reads back the same.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            self.text = String(Int64(value))
        } else {
            self.text = String(value)
        }
    }

    /// The value as an integer, if the literal is one that fits.
    public var intValue: Int? {
        if let int = Int(text) { return int }
        // `1.0` and `1e0` are integral too.
        guard let double = Double(text), double == double.rounded(), abs(double) < 9e15 else { return nil }
        return Int(double)
    }

    /// The value as a double (may round).
    public var doubleValue: Double? { Double(text) }

    public var description: String { text }
}

/// A JSON object whose members keep the order they were written in.
///
/// Lookups find the last member of a name, as most JSON readers (and iOS) do when a name repeats.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One `"name": value` pair.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSON
        public init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }

        /// True when the member's name is `name`: the same UTF-8 bytes, as JSON compares names
        /// by their code units (RFC 8259 §8.3), not by canonical equivalence as `String ==`
        /// does. Most names differ in length, which settles it at once.
        public func isNamed(_ name: String) -> Bool {
            // Equal bytes are also equal by `==`, whose check is cheap for most names; the bytes
            // are compared only for a name that passes it.
            key.utf8.count == name.utf8.count && key == name && key.utf8.elementsEqual(name.utf8)
        }
    }

    /// The members in order, repeated names included.
    public private(set) var members: [Member]

    public init() { members = [] }
    public init(members: [Member]) { self.members = members }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// The value of a member; setting `nil` removes every member of that name, setting a value
    /// replaces the member in place (keeping its position) or appends it.
    public subscript(key: String) -> JSON? {
        get { members.last(where: { $0.isNamed(key) })?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.isNamed(key) }
                return
            }
            if let index = members.lastIndex(where: { $0.isNamed(key) }) {
                members[index].value = newValue
                // A repeated name collapses to the member that was read.
                if members.firstIndex(where: { $0.isNamed(key) }) != index {
                    members = members.enumerated()
                        .filter { $0.offset == index || !$0.element.isNamed(key) }
                        .map(\.element)
                }
            } else {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Names that occur more than once.
    public var repeatedKeys: [String] {
        guard members.count > 1 else { return [] }
        var repeated: [String] = []
        if members.count <= 16 {
            // Small objects, the usual case: comparing pairs beats hashing.
            for (index, member) in members.enumerated().dropFirst()
            where members[..<index].contains(where: { $0.isNamed(member.key) })
                && !repeated.contains(where: { $0.utf8.elementsEqual(member.key.utf8) }) {
                repeated.append(member.key)
            }
            return repeated
        }
        var seen = Set<[UInt8]>()
        for member in members where !seen.insert(Array(member.key.utf8)).inserted
            && !repeated.contains(where: { $0.utf8.elementsEqual(member.key.utf8) }) {
            repeated.append(member.key)
        }
        return repeated
    }
}

extension JSON {
    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array, if this is one.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the type, for messages: "a string", "an object".
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A member of an object, or `nil`.
    public subscript(key: String) -> JSON? {
        objectValue?[key]
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(members: elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}
