import NSECore

/// Finds media URLs in a payload at a list of key paths.
///
/// What a key path holds decides how it is read, so one rule serves every vendor:
/// - a string: one URL (an empty string counts as no media);
/// - a list: each element, a URL string or an object as below;
/// - an object with `url` or `urls`: an attachment description (Airship's shape; see
///   ``AirshipAttachment``), with an optional `type` hint;
/// - any other object: identifiers mapped to URLs (OneSignal's `att`: `{"id": "https://…"}`).
///
/// A path ending in `url` also reads a sibling `type` as the type hint (Braze's `ab.att.type`).
/// The same URL found twice is kept once, at the first key that names it.
struct MediaLocator: Sendable {
    let keys: [String]
    /// The identifier each key path suggests, worked out once.
    private let identifiers: [String]
    /// For each top-level member name a key path can start with, the key paths (by index)
    /// that start with it. A path's first member may itself contain dots
    /// (`com.urbanairship.media_attachment`), so every dotted prefix of a path is listed.
    private let pathsByHead: [String: [Int]]

    init(keys: [String]) {
        self.keys = keys
        identifiers = keys.map(Self.identifier(forKeyPath:))
        var heads: [String: [Int]] = [:]
        for (index, key) in keys.enumerated() {
            var head = ""
            for (position, component) in key.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
                head += position == 0 ? component : "." + component
                if heads[head]?.last != index { heads[head, default: []].append(index) }
            }
        }
        pathsByHead = heads
    }

    struct Found {
        var references: [MediaReference] = []
        var warnings: [String] = []
    }

    func locate(in payload: JSONObject) -> Found {
        var found = Found()
        // One pass over the payload's top-level members marks the key paths that can match;
        // only those are looked up. A path none of whose heads is a member finds nothing, so
        // the result is the same as looking up every path, at a fraction of the cost (a
        // payload has a handful of members, the defaults are a dozen dotted paths).
        var candidate = [Bool](repeating: false, count: keys.count)
        var any = false
        for member in payload {
            guard let indices = pathsByHead[member.key] else { continue }
            for index in indices { candidate[index] = true }
            any = true
        }
        guard any else { return found }
        var seen: Set<String> = []
        for (index, key) in keys.enumerated() where candidate[index] {
            guard let value = payload.value(atPath: key), !value.isNull else { continue }
            var references: [MediaReference] = []
            read(value, keyPath: key, identifier: identifiers[index], payload: payload,
                 into: &references, warnings: &found.warnings)
            for reference in references where seen.insert(reference.url).inserted {
                found.references.append(reference)
            }
        }
        return found
    }

    private func read(
        _ value: JSON, keyPath: String, identifier: String, payload: JSONObject,
        into references: inout [MediaReference], warnings: inout [String]
    ) {
        switch value {
        case .string(let url):
            guard !url.isEmpty else { return }
            var options = AttachmentOptions()
            if let parent = Self.parentPath(ofURLKey: keyPath),
               let type = payload.value(atPath: parent + ".type")?.stringValue {
                options.typeHint = TypeHint.uti(from: type)
            }
            references.append(MediaReference(url: url, identifier: identifier, options: options, keyPath: keyPath))
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                read(element, keyPath: "\(keyPath).\(index)", identifier: identifier, payload: payload,
                     into: &references, warnings: &warnings)
            }
        case .object(let object) where object["url"] != nil || object["urls"] != nil:
            let attachment = AirshipAttachment(object, keyPath: keyPath, identifier: identifier)
            references += attachment.references
            warnings += attachment.warnings
        case .object(let object):
            for member in object {
                guard case .string(let url) = member.value else {
                    warnings.append("media: \(keyPath).\(member.key) holds \(member.value.typeDescription), not a URL; ignored")
                    continue
                }
                guard !url.isEmpty else { continue }
                references.append(MediaReference(url: url, identifier: member.key, keyPath: "\(keyPath).\(member.key)"))
            }
        default:
            warnings.append("media: \(keyPath) holds \(value.typeDescription), not a URL; ignored")
        }
    }

    /// The identifier a key path suggests: its last component, or the one before a generic
    /// `url`/`urls` (`fcm_options.image` → `image`, `ab.att.url` → `att`).
    static func identifier(forKeyPath keyPath: String) -> String {
        let components = keyPath.split(separator: ".").map(String.init)
        guard var name = components.last else { return "media" }
        if ["url", "urls"].contains(name.lowercased()), components.count > 1 {
            name = components[components.count - 2]
        }
        return name
    }

    /// `ab.att` for `ab.att.url`; nil when the path does not end in a `url` component.
    static func parentPath(ofURLKey keyPath: String) -> String? {
        guard keyPath.hasSuffix(".url") else { return nil }
        return String(keyPath.dropLast(4))
    }
}
