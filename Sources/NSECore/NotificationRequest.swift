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
        let parsed = try JSONReader.parse(bytes, limits: limits)
        guard case .object(let object) = parsed.value else {
            throw JSONParseError(
                message: "the payload is \(parsed.value.typeDescription); a notification payload is a JSON object",
                line: 1, column: 1, offset: 0)
        }
        self.init(id: id, payload: object, deadline: deadline, receivedAt: receivedAt)
        // Compact text, the usual case, is its own minified form.
        self.originalText = parsed.hadWhitespace ? minifiedJSON(bytes) : Array(bytes)
    }

    /// The content before any step ran.
    public var content: NotificationContent { NotificationContent(payload: payload) }
}
