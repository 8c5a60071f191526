/// What happened to one notification, and the content the phone would show.
/// Its JSON form is a public contract, described in docs/result-format.md.
public struct NotificationResult: Sendable {
    /// How the notification ended.
    public enum Outcome: String, Sendable, Hashable {
        /// The chain ran and changed the content.
        case modified
        /// The chain ran and changed nothing.
        case unchanged
        /// The chain did not run: iOS would not run an extension for this payload.
        case skipped
        /// The chain did not finish (deadline, or a failed step): the original content, or the best attempt, is delivered.
        case fallback
        /// The payload could not be read (not JSON, not an object, too large, unreadable file):
        /// `reason` is `invalid-payload` or `unreadable`, `error` says what and where, and there
        /// is no content. Only surfaces that take many payloads at once answer with it, so that
        /// every payload in still gets exactly one result out.
        case error
    }

    /// How one step went.
    public struct StepReport: Sendable, Hashable {
        public enum Status: String, Sendable, Hashable {
            /// Finished; its changes were kept.
            case ok
            /// Threw; `error` says why.
            case failed
            /// Still running when the deadline passed.
            case timedOut = "timed-out"
            /// Never started (an earlier step failed or the deadline passed first).
            case notRun = "not-run"
        }

        public var name: String
        public var status: Status
        public var duration: Duration
        public var error: String?

        public init(name: String, status: Status, duration: Duration = .zero, error: String? = nil) {
            self.name = name
            self.status = status
            self.duration = duration
            self.error = error
        }
    }

    public var id: String
    public var outcome: Outcome
    /// Why content fell back (`deadline`, `step-failed:decrypt`) or was skipped (`not-mutable`, `no-alert`).
    public var reason: String?
    /// The content delivered. Its attachments are the accepted ones.
    public var content: NotificationContent
    /// The original text of the payload, given back as it was when the content is the original.
    var originalText: [UInt8]?
    public var rejected: [Rejection]
    public var steps: [StepReport]
    public var warnings: [String]
    public var elapsed: Duration
    /// For `outcome: error`: what could not be read, and where.
    public var error: String?

    public init(
        id: String, outcome: Outcome, reason: String? = nil, content: NotificationContent,
        rejected: [Rejection] = [], steps: [StepReport] = [], warnings: [String] = [], elapsed: Duration = .zero
    ) {
        self.id = id
        self.outcome = outcome
        self.reason = reason
        self.content = content
        self.rejected = rejected
        self.steps = steps
        self.warnings = warnings
        self.elapsed = elapsed
    }

    /// The accepted attachments.
    public var attachments: [Attachment] { content.attachments }
}

extension NotificationResult {
    /// The answer for a payload that could not be read at all.
    public static func failed(id: String, reason: String, error: String) -> NotificationResult {
        var result = NotificationResult(id: id, outcome: .error, reason: reason, content: NotificationContent(payload: [:]))
        result.error = error
        return result
    }

    /// The result as JSON text, in the documented format (one line when compact).
    public func serialized(style: JSONWriter.Style = .compact) -> [UInt8] {
        var writer = JSONWriter(style: style, capacity: 1024)
        writer.writeResult(self)
        return writer.bytes
    }

    /// The payload delivered, as JSON text: the original bytes (minified) when untouched.
    public func contentJSON() -> [UInt8] {
        if let originalText { return originalText }
        return JSON.object(content.payload).serialized()
    }

    /// The result as a JSON value (content re-serialized; use `serialized()` for exact output).
    public var json: JSON {
        (try? JSON(parsing: serialized())) ?? .null
    }
}

extension JSONWriter {
    mutating func writeResult(_ result: NotificationResult) {
        let compact = style == .compact
        open(UInt8(ascii: "{"))
        member("id", first: true) { $0.writeString(result.id) }
        member("outcome") { $0.writeString(result.outcome.rawValue) }
        member("reason") { writer in
            if let reason = result.reason { writer.writeString(reason) } else { writer.append("null") }
        }
        if let error = result.error {
            member("error") { $0.writeString(error) }
        }
        member("content") { writer in
            if result.outcome == .error {
                writer.append("null")
            } else if let original = result.originalText, compact {
                writer.writeRaw(original)
            } else if let original = result.originalText, let parsed = try? JSON(parsing: original) {
                writer.write(parsed)
            } else {
                writer.write(.object(result.content.payload))
            }
        }
        member("attachments") { writer in
            writer.write(.array(result.attachments.map(\.json)))
        }
        member("rejected") { writer in
            writer.write(.array(result.rejected.map(\.json)))
        }
        member("steps") { writer in
            writer.write(.array(result.steps.map(\.json)))
        }
        member("warnings") { writer in
            writer.write(.array(result.warnings.map(JSON.string)))
        }
        member("elapsedMs") { writer in
            writer.write(.number(milliseconds(result.elapsed)))
        }
        close(UInt8(ascii: "}"))
    }

    private mutating func member(_ key: String, first: Bool = false, _ body: (inout JSONWriter) -> Void) {
        separator(first: first)
        writeKey(key)
        body(&self)
    }
}

/// Milliseconds with two decimals, as a JSON number.
func milliseconds(_ duration: Duration) -> JSONNumber {
    let (seconds, attoseconds) = duration.components
    let hundredths = seconds * 100_000 + attoseconds / 10_000_000_000_000
    let whole = hundredths / 100
    let fraction = abs(hundredths % 100)
    return JSONNumber(uncheckedText: "\(whole).\(fraction < 10 ? "0" : "")\(fraction)")
}

extension Attachment {
    /// The attachment as the result format writes it.
    public var json: JSON {
        var object = JSONObject()
        object["identifier"] = .string(identifier)
        object["file"] = .string(file)
        if let kind { object["kind"] = .string(kind.rawValue) }
        object["type"] = uti.map(JSON.string) ?? .null
        object["mime"] = mime.map(JSON.string) ?? .null
        object["bytes"] = byteCount.map { .number(JSONNumber($0)) } ?? .null
        object["source"] = source.map(JSON.string) ?? .null
        object["options"] = options.json
        return .object(object)
    }
}

extension AttachmentOptions {
    /// The options as the result format writes them (only those that are set).
    public var json: JSON {
        var object = JSONObject()
        if let typeHint { object["typeHint"] = .string(typeHint) }
        if let thumbnailHidden { object["thumbnailHidden"] = .bool(thumbnailHidden) }
        if let rect = thumbnailClippingRect {
            object["thumbnailClippingRect"] = [
                "x": JSONNumber(rect.x).map(JSON.number) ?? .null,
                "y": JSONNumber(rect.y).map(JSON.number) ?? .null,
                "width": JSONNumber(rect.width).map(JSON.number) ?? .null,
                "height": JSONNumber(rect.height).map(JSON.number) ?? .null,
            ]
        }
        if let time = thumbnailTime.flatMap(JSONNumber.init) { object["thumbnailTime"] = .number(time) }
        return .object(object)
    }
}

extension Rejection {
    /// The rejection as the result format writes it.
    public var json: JSON {
        var object = JSONObject()
        if let identifier { object["identifier"] = .string(identifier) }
        object["source"] = source.map(JSON.string) ?? .null
        object["reason"] = .string(reason.rawValue)
        object["detail"] = .string(detail)
        return .object(object)
    }
}

extension NotificationResult.StepReport {
    /// The step as the result format writes it.
    public var json: JSON {
        var object: JSONObject = [
            "name": .string(name),
            "status": .string(status.rawValue),
            "ms": .number(milliseconds(duration)),
        ]
        if let error { object["error"] = .string(error) }
        return .object(object)
    }
}
