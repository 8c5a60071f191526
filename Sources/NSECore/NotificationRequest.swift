/// One notification to process: a payload and its id, as it arrived.
public struct NotificationRequest: Sendable {
    /// Names the notification in results and logs (`apns-id`, a batch line's id, a file name).
    public var id: String
    /// The payload.
    public var payload: JSONObject
    /// The payload's own text, minified, when it came from bytes: content that no step changed
    /// is given back as this text, byte for byte (escapes included).
    public var originalText: [UInt8]?
    /// Overrides the pipeline's deadline for this notification.
    public var deadline: Duration?
    /// When the notification arrived; the deadline counts from here.
    public var receivedAt: ContinuousClock.Instant

    public init(
        id: String, payload: JSONObject, deadline: Duration? = nil, receivedAt: ContinuousClock.Instant = .now
    ) {
        self.id = id
        self.payload = payload
        self.deadline = deadline
        self.receivedAt = receivedAt
    }

    /// Reads a payload from JSON text; it must be an object.
    public init(
        id: String, json bytes: some Collection<UInt8>, limits: JSONLimits = JSONLimits(),
        deadline: Duration? = nil, receivedAt: ContinuousClock.Instant = .now
    ) throws(JSONParseError) {
        // Everything is read from a buffer: code over `some Collection` called from another
        // module runs unspecialized, a witness-table call per byte.
        let read = bytes.withContiguousStorageIfAvailable { Self.read($0, limits: limits) }
            ?? Array(bytes).withUnsafeBufferPointer { Self.read($0, limits: limits) }
        let (payload, text) = try read.get()
        self.init(id: id, payload: payload, deadline: deadline, receivedAt: receivedAt)
        self.originalText = text
    }

    /// The payload object and its minified text.
    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits
    ) -> Result<(JSONObject, [UInt8]), JSONParseError> {
        let parsed: JSONReader.Parsed
        switch JSONReader.parse(bytes, limits: limits) {
        case .success(let value): parsed = value
        case .failure(let error): return .failure(error)
        }
        guard case .object(let object) = parsed.value else {
            return .failure(JSONParseError(
                message: "the payload is \(parsed.value.typeDescription); a notification payload is a JSON object",
                line: 1, column: 1, offset: 0))
        }
        // Compact text, the usual case, is its own minified form.
        return .success((object, parsed.hadWhitespace ? minifiedJSON(bytes) : Array(bytes)))
    }

    /// The content before any step ran.
    public var content: NotificationContent { NotificationContent(payload: payload) }
}
