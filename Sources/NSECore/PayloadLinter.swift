/// Finds what a sender probably got wrong in a payload: things APNs refuses or iOS ignores.
/// Warnings never change what is delivered; they say what to fix.
public enum PayloadLinter {
    /// APNs refuses a regular notification payload over this many bytes.
    public static let maxPayloadBytes = 4096

    static let apsKeys: Set<String> = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria",
        // Live Activities and Safari.
        "stale-date", "content-state", "timestamp", "event", "dismissal-date", "attributes-type",
        "attributes", "input-push-token", "input-push-channel", "url-args",
    ]

    static let alertKeys: Set<String> = [
        "title", "subtitle", "body", "launch-image", "title-loc-key", "title-loc-args",
        "subtitle-loc-key", "subtitle-loc-args", "loc-key", "loc-args", "action-loc-key", "action",
        "summary-arg", "summary-arg-count",
    ]

    /// Lints a payload; `byteCount` is its size as APNs would receive it (compact).
    public static func lint(_ payload: JSONObject, byteCount: Int) -> [String] {
        var warnings: [String] = []
        if byteCount > maxPayloadBytes {
            warnings.append("the payload is \(byteCount) bytes; APNs refuses payloads over \(maxPayloadBytes) bytes")
        }
        for key in payload.repeatedKeys {
            warnings.append("\(key) appears more than once; only the last value counts")
        }
        guard let apsValue = payload["aps"] else {
            warnings.append("the payload has no aps dictionary; iOS shows nothing and runs no extension")
            return warnings
        }
        guard case .object(let aps) = apsValue else {
            warnings.append("aps is \(apsValue.typeDescription); it must be an object")
            return warnings
        }
        for key in aps.repeatedKeys {
            warnings.append("aps.\(key) appears more than once; only the last value counts")
        }
        lintMutableContent(aps, into: &warnings)
        lintAlert(aps, into: &warnings)
        lintValueTypes(aps, into: &warnings)
        for member in aps.members where !apsKeys.contains(member.key) {
            warnings.append("aps.\(member.key) is not a key APNs defines; custom data belongs outside aps")
        }
        return warnings
    }

    static func lintMutableContent(_ aps: JSONObject, into warnings: inout [String]) {
        guard let value = aps["mutable-content"] else { return }
        switch value {
        case .number(let number):
            if number.intValue != 1 && number.intValue != 0 {
                warnings.append("aps.mutable-content is \(number.text); iOS runs the extension only for the number 1")
            }
        case .string(let text):
            warnings.append("aps.mutable-content is the string \"\(text)\"; APNs expects the number 1, and iOS will not run the extension")
        case .bool(let flag):
            warnings.append("aps.mutable-content is the boolean \(flag); APNs expects the number 1, and iOS will not run the extension")
        default:
            warnings.append("aps.mutable-content is \(value.typeDescription); APNs expects the number 1")
        }
    }

    /// Alert members that must be strings, and the `*-loc-args` arrays; made once, not per call.
    static let alertStringKeys = ["title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key"]
    static let alertArgumentKeys = ["title-loc-args", "subtitle-loc-args", "loc-args"]
    static let apsStringKeys = ["category", "thread-id", "target-content-id", "filter-criteria"]

    static func lintAlert(_ aps: JSONObject, into warnings: inout [String]) {
        let mutable = aps["mutable-content"]?.numberValue?.intValue == 1
        let alertValue = aps["alert"]
        switch alertValue {
        case nil:
            if mutable {
                warnings.append("aps has mutable-content but no alert; iOS runs the extension only for notifications that show an alert")
            }
        case .string?, .object?:
            if case .object(let alert)? = alertValue {
                for member in alert.members where !alertKeys.contains(member.key) {
                    warnings.append("aps.alert.\(member.key) is not a key APNs defines for an alert")
                }
                for key in alertStringKeys {
                    if let value = alert[key], value.stringValue == nil, !value.isNull {
                        warnings.append("aps.alert.\(key) is \(value.typeDescription); it must be a string")
                    }
                }
                for key in alertArgumentKeys {
                    guard let value = alert[key] else { continue }
                    if let array = value.arrayValue {
                        if array.contains(where: { $0.stringValue == nil }) {
                            warnings.append("aps.alert.\(key) holds values that are not strings; iOS substitutes only strings")
                        }
                        let keyName = key.replacingSuffix("-args", with: "-key")
                        if alert[keyName] == nil {
                            warnings.append("aps.alert.\(key) is set without aps.alert.\(keyName); it is ignored")
                        }
                    } else {
                        warnings.append("aps.alert.\(key) is \(value.typeDescription); it must be an array of strings")
                    }
                }
            }
            if mutable && !NotificationContent.hasAlertText(alertValue) {
                warnings.append("aps.alert has no title, subtitle or body text; iOS will not run the extension")
            }
        case let other?:
            warnings.append("aps.alert is \(other.typeDescription); it must be a string or an object")
        }
    }

    static func lintValueTypes(_ aps: JSONObject, into warnings: inout [String]) {
        if let badge = aps["badge"] {
            if badge.numberValue?.intValue == nil {
                warnings.append("aps.badge is \(describe(badge)); it must be a whole number")
            } else if let value = badge.numberValue?.intValue, value < 0 {
                warnings.append("aps.badge is negative; iOS ignores it")
            }
        }
        if let sound = aps["sound"] {
            switch sound {
            case .string: break
            case .object(let object):
                if let critical = object["critical"], critical.numberValue == nil {
                    warnings.append("aps.sound.critical is \(describe(critical)); it must be the number 1 or 0")
                }
                if let volume = object["volume"] {
                    if let value = volume.numberValue?.doubleValue {
                        if !(0...1).contains(value) { warnings.append("aps.sound.volume is \(value); it must be between 0 and 1") }
                    } else {
                        warnings.append("aps.sound.volume is \(describe(volume)); it must be a number between 0 and 1")
                    }
                }
            default:
                warnings.append("aps.sound is \(describe(sound)); it must be a file name or a dictionary")
            }
        }
        if let available = aps["content-available"], available.numberValue == nil {
            warnings.append("aps.content-available is \(describe(available)); APNs expects the number 1")
        }
        for key in apsStringKeys {
            if let value = aps[key], value.stringValue == nil {
                warnings.append("aps.\(key) is \(describe(value)); it must be a string")
            }
        }
        if let level = aps["interruption-level"] {
            if let text = level.stringValue {
                if InterruptionLevel(rawValue: text) == nil {
                    let known = InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", ")
                    warnings.append("aps.interruption-level is \"\(text)\"; it must be one of \(known)")
                }
            } else {
                warnings.append("aps.interruption-level is \(describe(level)); it must be a string")
            }
        }
        if let score = aps["relevance-score"] {
            if let value = score.numberValue?.doubleValue {
                if !(0...1).contains(value) { warnings.append("aps.relevance-score is \(value); it must be between 0 and 1") }
            } else {
                warnings.append("aps.relevance-score is \(describe(score)); it must be a number between 0 and 1")
            }
        }
    }

    /// "the string \"3\"" and the like: the value as well as its type, so the fix is obvious.
    static func describe(_ value: JSON) -> String {
        switch value {
        case .string(let text): "the string \"\(text)\""
        case .bool(let flag): "the boolean \(flag)"
        case .number(let number): "the number \(number.text)"
        default: value.typeDescription
        }
    }
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
