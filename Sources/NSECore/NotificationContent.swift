/// The content of a notification as an extension sees it (`UNMutableNotificationContent`),
/// backed by the payload itself so that every key nse does not know survives untouched.
///
/// Setting a property to `nil` removes its key. Setting an alert property when `aps.alert` is a
/// plain string turns the alert into a dictionary that keeps the string as its `body`.
public struct NotificationContent: Sendable, Hashable {
    /// The whole payload: `aps` and every custom key, in order.
    public var payload: JSONObject
    /// The attachments, in the order they will be shown (the first is the thumbnail).
    public var attachments: [Attachment]

    public init(payload: JSONObject, attachments: [Attachment] = []) {
        self.payload = payload
        self.attachments = attachments
    }

    /// The `aps` dictionary (empty when absent or not an object).
    public var aps: JSONObject {
        get { payload["aps"]?.objectValue ?? JSONObject() }
        set { payload["aps"] = .object(newValue) }
    }

    /// Every key outside `aps`, as `UNNotificationContent.userInfo` carries them.
    public var userInfo: JSONObject {
        get { JSONObject(members: payload.members.filter { $0.key != "aps" }) }
        set {
            let aps = payload["aps"]
            var members = newValue.members.filter { $0.key != "aps" }
            if let aps { members.insert(JSONObject.Member(key: "aps", value: aps), at: 0) }
            payload = JSONObject(members: members)
        }
    }

    // MARK: Alert

    /// `aps.alert` as written: a string, an object, or nil.
    public var alert: JSON? {
        get { aps["alert"] }
        set { aps["alert"] = newValue }
    }

    /// A member of the alert dictionary; a plain-string alert counts as its `body`.
    public subscript(alertKey key: String) -> JSON? {
        get {
            switch alert {
            case .string(let body)?: key == "body" ? .string(body) : nil
            case .object(let object)?: object[key]
            default: nil
            }
        }
        set {
            var object: JSONObject
            switch alert {
            case .string(let body)?:
                if key == "body" {
                    alert = newValue
                    return
                }
                object = ["body": .string(body)]
            case .object(let existing)?: object = existing
            default: object = JSONObject()
            }
            object[key] = newValue
            alert = object.isEmpty ? nil : .object(object)
        }
    }

    public var title: String? {
        get { self[alertKey: "title"]?.stringValue }
        set { self[alertKey: "title"] = newValue.map(JSON.string) }
    }

    public var subtitle: String? {
        get { self[alertKey: "subtitle"]?.stringValue }
        set { self[alertKey: "subtitle"] = newValue.map(JSON.string) }
    }

    public var body: String? {
        get { self[alertKey: "body"]?.stringValue }
        set { self[alertKey: "body"] = newValue.map(JSON.string) }
    }

    public var launchImageName: String? {
        get { self[alertKey: "launch-image"]?.stringValue }
        set { self[alertKey: "launch-image"] = newValue.map(JSON.string) }
    }

    public var titleLocKey: String? {
        get { self[alertKey: "title-loc-key"]?.stringValue }
        set { self[alertKey: "title-loc-key"] = newValue.map(JSON.string) }
    }

    public var titleLocArgs: [String]? {
        get { Self.strings(self[alertKey: "title-loc-args"]) }
        set { self[alertKey: "title-loc-args"] = newValue.map { .array($0.map(JSON.string)) } }
    }

    public var subtitleLocKey: String? {
        get { self[alertKey: "subtitle-loc-key"]?.stringValue }
        set { self[alertKey: "subtitle-loc-key"] = newValue.map(JSON.string) }
    }

    public var subtitleLocArgs: [String]? {
        get { Self.strings(self[alertKey: "subtitle-loc-args"]) }
        set { self[alertKey: "subtitle-loc-args"] = newValue.map { .array($0.map(JSON.string)) } }
    }

    public var locKey: String? {
        get { self[alertKey: "loc-key"]?.stringValue }
        set { self[alertKey: "loc-key"] = newValue.map(JSON.string) }
    }

    public var locArgs: [String]? {
        get { Self.strings(self[alertKey: "loc-args"]) }
        set { self[alertKey: "loc-args"] = newValue.map { .array($0.map(JSON.string)) } }
    }

    /// True when the alert has something to show: iOS runs the extension only then.
    public var hasAlertText: Bool { Self.hasAlertText(alert) }

    /// The alert members that count as something to show.
    static let alertTextKeys = ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"]

    /// True when an `aps.alert` value has something to show.
    static func hasAlertText(_ alert: JSON?) -> Bool {
        switch alert {
        case .string(let text)?: return !text.isEmpty
        case .object(let object)?:
            return object.members.contains { member in
                guard case .string(let text) = member.value, !text.isEmpty else { return false }
                return alertTextKeys.contains(member.key)
            }
        default: return false
        }
    }

    // MARK: Other aps keys

    /// `aps.badge`; 0 clears the badge.
    public var badge: Int? {
        get { aps["badge"]?.numberValue?.intValue }
        set { aps["badge"] = newValue.map { .number(JSONNumber($0)) } }
    }

    /// `aps.sound`.
    public var sound: NotificationSound? {
        get { aps["sound"].flatMap(NotificationSound.init(json:)) }
        set { aps["sound"] = newValue?.json }
    }

    /// `aps.category`, `UNNotificationContent.categoryIdentifier`.
    public var categoryIdentifier: String? {
        get { aps["category"]?.stringValue }
        set { aps["category"] = newValue.map(JSON.string) }
    }

    /// `aps.thread-id`.
    public var threadIdentifier: String? {
        get { aps["thread-id"]?.stringValue }
        set { aps["thread-id"] = newValue.map(JSON.string) }
    }

    /// `aps.target-content-id`.
    public var targetContentIdentifier: String? {
        get { aps["target-content-id"]?.stringValue }
        set { aps["target-content-id"] = newValue.map(JSON.string) }
    }

    /// `aps.interruption-level`.
    public var interruptionLevel: InterruptionLevel? {
        get { aps["interruption-level"]?.stringValue.flatMap(InterruptionLevel.init(rawValue:)) }
        set { aps["interruption-level"] = newValue.map { .string($0.rawValue) } }
    }

    /// `aps.relevance-score`, 0…1.
    public var relevanceScore: Double? {
        get { aps["relevance-score"]?.numberValue?.doubleValue }
        set { aps["relevance-score"] = newValue.flatMap(JSONNumber.init).map(JSON.number) }
    }

    /// `aps.filter-criteria`, for Focus filters.
    public var filterCriteria: String? {
        get { aps["filter-criteria"]?.stringValue }
        set { aps["filter-criteria"] = newValue.map(JSON.string) }
    }

    /// True when `aps.mutable-content` is the number 1.
    public var isMutable: Bool {
        aps["mutable-content"]?.numberValue?.intValue == 1
    }

    static func strings(_ json: JSON?) -> [String]? {
        guard let array = json?.arrayValue else { return nil }
        return array.compactMap(\.stringValue)
    }
}

/// `aps.interruption-level`.
public enum InterruptionLevel: String, Sendable, Hashable, CaseIterable {
    case passive, active
    case timeSensitive = "time-sensitive"
    case critical
}

/// `aps.sound`: a sound file name, or the dictionary form for critical alerts.
public enum NotificationSound: Sendable, Hashable {
    case named(String)
    case critical(name: String?, volume: Double?, critical: Bool)

    init?(json: JSON) {
        switch json {
        case .string(let name): self = .named(name)
        case .object(let object):
            self = .critical(
                name: object["name"]?.stringValue,
                volume: object["volume"]?.numberValue?.doubleValue,
                critical: object["critical"]?.numberValue?.intValue == 1)
        default: return nil
        }
    }

    var json: JSON {
        switch self {
        case .named(let name): return .string(name)
        case .critical(let name, let volume, let critical):
            var object = JSONObject()
            object["critical"] = .number(JSONNumber(critical ? 1 : 0))
            if let name { object["name"] = .string(name) }
            if let volume, let number = JSONNumber(volume) { object["volume"] = .number(number) }
            return .object(object)
        }
    }
}
