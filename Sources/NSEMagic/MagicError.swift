/// An error from the libmagic sniffer: what failed, what to do about it, and the cause.
public struct MagicError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. Extensible: new codes may be added without breaking callers.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `load-failed`.
        public var rawValue: String
        /// A code by name; prefer the named constants.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// `magic_open` failed (out of memory).
        public static let openFailed = Code(rawValue: "open-failed")
        /// `magic_load` could not load the magic database.
        public static let loadFailed = Code(rawValue: "load-failed")
        /// libmagic could not classify a buffer.
        public static let classifyFailed = Code(rawValue: "classify-failed")
        /// The file does not exist.
        public static let fileNotFound = Code(rawValue: "file-not-found")
        /// The path is not a regular file (a directory, a device, a socket…).
        public static let notARegularFile = Code(rawValue: "not-a-regular-file")
        /// The file exists but could not be read.
        public static let readFailed = Code(rawValue: "read-failed")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened and what to do, in words a person can act on.
    public var message: String
    /// The underlying cause: libmagic's `magic_error` text or the `errno` description.
    public var cause: String?

    /// Makes an error.
    public init(code: Code, message: String, cause: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The message, followed by the cause in parentheses when there is one.
    public var description: String {
        cause.map { "\(message) (\($0))" } ?? message
    }
}
