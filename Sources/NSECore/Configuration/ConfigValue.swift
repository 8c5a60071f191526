import Foundation

/// A value read from a pipeline configuration, with the key path it sits at, so that every
/// error can say where it is. Plugins read their options through it.
public struct ConfigValue: Sendable {
    /// The value itself.
    public let json: JSON
    /// Where it is, e.g. `steps[0].decrypt.keys`.
    public let path: String
    /// The folder relative paths are read against: the configuration file's own folder.
    public let baseDirectory: String

    public init(json: JSON, path: String = "", baseDirectory: String) {
        self.json = json
        self.path = path
        self.baseDirectory = baseDirectory
    }

    /// An error at this value's path.
    public func error(_ message: String) -> ConfigurationError {
        ConfigurationError(path: path, message: message)
    }

    /// A member of an object value, carrying its path; `nil` when absent or null.
    public subscript(key: String) -> ConfigValue? {
        guard let value = json[key], !value.isNull else { return nil }
        return ConfigValue(json: value, path: path.isEmpty ? key : "\(path).\(key)", baseDirectory: baseDirectory)
    }

    /// The keys of an object value, in order (empty for null).
    public func keys() throws(ConfigurationError) -> [String] {
        switch json {
        case .null: return []
        case .object(let object): return object.keys
        default: throw error("expected an object of options, found \(json.typeDescription)")
        }
    }

    /// Fails on a key that is not one of `allowed`, naming the ones that are.
    public func checkKeys(_ allowed: [String]) throws(ConfigurationError) {
        for key in try keys() where !allowed.contains(key) {
            let child = path.isEmpty ? key : "\(path).\(key)"
            let known = allowed.isEmpty ? "this takes no options" : "known keys: \(allowed.joined(separator: ", "))"
            throw ConfigurationError(path: child, message: "unknown key; \(known)")
        }
    }

    public func string() throws(ConfigurationError) -> String {
        switch json {
        case .string(let text): return text
        case .number(let number): return number.text
        default: throw error("expected a string, found \(json.typeDescription)")
        }
    }

    public func bool() throws(ConfigurationError) -> Bool {
        guard case .bool(let flag) = json else { throw error("expected true or false, found \(json.typeDescription)") }
        return flag
    }

    public func int() throws(ConfigurationError) -> Int {
        guard let value = json.numberValue?.intValue else { throw error("expected a whole number, found \(json.typeDescription)") }
        return value
    }

    public func double() throws(ConfigurationError) -> Double {
        guard let value = json.numberValue?.doubleValue else { throw error("expected a number, found \(json.typeDescription)") }
        return value
    }

    /// A list of strings; a single string counts as a list of one.
    public func stringList() throws(ConfigurationError) -> [String] {
        switch json {
        case .string(let text): return [text]
        case .array(let elements):
            var strings: [String] = []
            for element in try array() { strings.append(try element.string()) }
            _ = elements
            return strings
        default: throw error("expected a string or a list of strings, found \(json.typeDescription)")
        }
    }

    /// The elements of an array value, each with its path.
    public func array() throws(ConfigurationError) -> [ConfigValue] {
        guard case .array(let elements) = json else { throw error("expected a list, found \(json.typeDescription)") }
        return elements.enumerated().map { ConfigValue(json: $0.element, path: "\(path)[\($0.offset)]", baseDirectory: baseDirectory) }
    }

    /// One of an enumeration's raw values.
    public func oneOf<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) throws(ConfigurationError) -> Value
    where Value.RawValue == String {
        let text = try string()
        guard let value = Value(rawValue: text) else {
            let known = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw error("\"\(text)\" is not one of \(known)")
        }
        return value
    }

    /// A duration: `30s`, `250ms`, `1.5s`, `2m`, or a bare number of seconds.
    public func duration() throws(ConfigurationError) -> Duration {
        guard let value = parseDuration(try string()) else {
            throw error("expected a duration such as 30s, 500ms or 2m, found \"\((try? string()) ?? "")\"")
        }
        return value
    }

    /// A size in bytes: `5MB` (1,000,000 bytes a MB), `512KB`, `5MiB`, or a bare number of bytes.
    public func byteSize() throws(ConfigurationError) -> Int64 {
        guard let value = parseByteSize(try string()) else {
            throw error("expected a size such as 5MB, 512KB or 1000000, found \"\((try? string()) ?? "")\"")
        }
        return value
    }

    /// A path, resolved against the configuration file's folder; must exist unless told otherwise.
    public func filePath(mustExist: Bool = true) throws(ConfigurationError) -> String {
        let raw = try string()
        guard !raw.isEmpty else { throw error("expected a path, found an empty string") }
        let expanded = (raw as NSString).expandingTildeInPath
        let resolved = expanded.hasPrefix("/") ? expanded : (baseDirectory as NSString).appendingPathComponent(expanded)
        let standardized = (resolved as NSString).standardizingPath
        if mustExist && !FileManager.default.fileExists(atPath: standardized) {
            throw error("\(standardized) does not exist")
        }
        return standardized
    }
}

/// Parses `30s`, `250ms`, `1.5s`, `2m`, `1h` or a bare number of seconds.
public func parseDuration(_ text: String) -> Duration? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    // Below about 31 years: beyond it the nanoseconds no longer fit.
    guard let seconds = parseQuantity(text.lowercased(), units: units), seconds < 1e9 else { return nil }
    return .nanoseconds(Int64(seconds * 1e9))
}

/// Parses `5MB`, `512KB`, `1GB` (powers of 1000), `5MiB`, `512KiB` (powers of 1024), `100B` or a bare byte count.
public func parseByteSize(_ text: String) -> Int64? {
    let units: [(String, Double)] = [
        ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
        ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("kB", 1e3), ("B", 1),
    ]
    guard let bytes = parseQuantity(text, units: units)?.rounded(), bytes < 1e18 else { return nil }
    return Int64(bytes)
}

/// A non-negative number with an optional unit suffix (the first of `units` that matches),
/// scaled by that unit's factor.
func parseQuantity(_ text: String, units: [(suffix: String, factor: Double)]) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let unit = units.first { trimmed.hasSuffix($0.suffix) }
    let number = trimmed.dropLast(unit?.suffix.count ?? 0).trimmingCharacters(in: .whitespaces)
    guard let value = Double(number), value >= 0, value.isFinite else { return nil }
    return value * (unit?.factor ?? 1)
}
