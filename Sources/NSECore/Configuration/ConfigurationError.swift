/// A pipeline configuration that cannot be used, with the path of the key at fault.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key path, e.g. `steps[1].rewrite.title`, or empty for the whole file.
    public var path: String
    /// What is wrong and what to do.
    public var message: String
    /// The file the configuration came from, if any.
    public var file: String?

    public init(path: String, message: String, file: String? = nil) {
        self.path = path
        self.message = message
        self.file = file
    }

    public var description: String {
        let location = [file, path.isEmpty ? nil : path].compactMap { $0 }.joined(separator: ": ")
        return location.isEmpty ? message : "\(location): \(message)"
    }
}
