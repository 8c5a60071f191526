/// Why a ciphertext could not be decrypted. The one error type of the decrypt plugin.
///
/// Messages name what went wrong and what to do; they never contain key bytes, ciphertext or
/// plaintext, so they are safe to log and to put in a result.
public struct DecryptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Extensible: new codes may be added, so switch with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case unknownKey = "unknown-key"
            case authenticationFailed = "authentication-failed"
            case truncated
            case badPadding = "bad-padding"
            case unsupportedAlgorithm = "unsupported-algorithm"
            case malformed
            case compressionUnsupported = "compression-unsupported"
            case unsupportedCritical = "unsupported-critical"
            case invalidKeySet = "invalid-key-set"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// No key in the key set fits: the `kid` is unknown, or no key of the needed type exists.
        public static let unknownKey = Code(.unknownKey)
        /// A tag did not verify: the wrong key, or the ciphertext was altered.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// The ciphertext ends too early (a record, tag or header is cut short).
        public static let truncated = Code(.truncated)
        /// A record's padding or delimiter is not what the encoding requires.
        public static let badPadding = Code(.badPadding)
        /// An algorithm, encoding or scheme this plugin does not implement.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The ciphertext or its parameters cannot be read (bad base64, bad JSON header, bad sizes).
        public static let malformed = Code(.malformed)
        /// A JWE with `zip`: compressed plaintexts are refused.
        public static let compressionUnsupported = Code(.compressionUnsupported)
        /// A JWE whose `crit` names a header parameter this plugin does not understand.
        public static let unsupportedCritical = Code(.unsupportedCritical)
        /// The key set file cannot be used (not a JWK Set, a key without its private part, …).
        public static let invalidKeySet = Code(.invalidKeySet)

        /// A short stable name, e.g. `authentication-failed`.
        public var description: String { value.rawValue }
    }

    /// What kind of failure.
    public var code: Code
    /// What happened and what to do. Never contains secrets, ciphertext or plaintext.
    public var message: String

    /// An error of `code`; `message` must hold no secret, ciphertext or plaintext.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `decrypt: <code>: <message>`.
    public var description: String { "decrypt: \(code): \(message)" }
}

extension DecryptError {
    static func malformed(_ message: String) -> DecryptError { DecryptError(.malformed, message) }
    static func truncated(_ message: String) -> DecryptError { DecryptError(.truncated, message) }
    static func badPadding(_ message: String) -> DecryptError { DecryptError(.badPadding, message) }
    static func unsupported(_ message: String) -> DecryptError { DecryptError(.unsupportedAlgorithm, message) }
    static func unknownKey(_ message: String) -> DecryptError { DecryptError(.unknownKey, message) }
    static func authenticationFailed(_ what: String) -> DecryptError {
        DecryptError(.authenticationFailed,
            "\(what) did not authenticate: it was encrypted for another key, or altered on the way; check that the sender uses this key set's public key")
    }
}
