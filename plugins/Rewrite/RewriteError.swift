/// Why the rewrite plugin could not do something: a strings file it cannot read, a template
/// that does not parse. Errors found while loading a pipeline become `ConfigurationError`s that
/// name the option's key path; this type carries the detail.
public struct RewriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case stringsSyntax = "strings-syntax"
            case stringsEncoding = "strings-encoding"
            case catalogSyntax = "catalog-syntax"
            case unreadableFile = "unreadable-file"
            case noLocalizations = "no-localizations"
            case templateSyntax = "template-syntax"
        }
        private let base: Base

        /// A `.strings` file breaks the strings-file grammar.
        public static let stringsSyntax = Code(base: .stringsSyntax)
        /// A `.strings` file is neither UTF-8 nor UTF-16.
        public static let stringsEncoding = Code(base: .stringsEncoding)
        /// A `.xcstrings` catalog is not the JSON a catalog is.
        public static let catalogSyntax = Code(base: .catalogSyntax)
        /// A file could not be read.
        public static let unreadableFile = Code(base: .unreadableFile)
        /// A strings folder holds neither `*.lproj/Localizable.strings` nor `Localizable.xcstrings`.
        public static let noLocalizations = Code(base: .noLocalizations)
        /// A Mustache template does not parse.
        public static let templateSyntax = Code(base: .templateSyntax)

        /// The code's name, e.g. `template-syntax`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and what to do about it.
    public var message: String
    /// The file at fault, when there is one.
    public var file: String?
    /// The line (1-based) at fault, when known.
    public var line: Int?
    /// The column (1-based) at fault, when known.
    public var column: Int?

    /// An error of `code` with a message that says what to do.
    public init(_ code: Code, _ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file, line 3, column 1: message`, with the parts that are known.
    public var description: String {
        var location: [String] = []
        if let file { location.append(file) }
        if let line { location.append(column.map { "line \(line), column \($0)" } ?? "line \(line)") }
        return location.isEmpty ? message : "\(location.joined(separator: ", ")): \(message)"
    }
}
