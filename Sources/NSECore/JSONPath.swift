extension JSON {
    /// The value at a dotted key path such as `fcm_options.image` or `ab.att.url`.
    ///
    /// A key that itself contains dots (`com.urbanairship.media_attachment`) is found too:
    /// at each level the longest run of path components that names a member wins.
    /// A component that is a number indexes an array (`urls.0`).
    public func value(atPath path: String) -> JSON? {
        // A path without a dot is one member or index: look it up without splitting and
        // joining strings (the same answer as the general walk below, which is costly per call).
        if !path.utf8.contains(UInt8(ascii: ".")) {
            switch self {
            case .object(let object): return object[path]
            case .array(let elements):
                guard let index = Int(path), elements.indices.contains(index) else { return nil }
                return elements[index]
            default: return nil
            }
        }
        return value(atComponents: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...])
    }

    private func value(atComponents components: ArraySlice<String>) -> JSON? {
        guard let first = components.first else { return self }
        switch self {
        case .object(let object):
            // Longest match first, so `a.b` as one key is preferred over `a` then `b`.
            for length in stride(from: components.count, through: 1, by: -1) {
                let key = components.prefix(length).joined(separator: ".")
                if let child = object[key], let found = child.value(atComponents: components.dropFirst(length)) {
                    return found
                }
            }
            return nil
        case .array(let elements):
            guard let index = Int(first), elements.indices.contains(index) else { return nil }
            return elements[index].value(atComponents: components.dropFirst())
        default:
            return nil
        }
    }
}

extension JSONObject {
    /// The value at a dotted key path (see `JSON.value(atPath:)`).
    public func value(atPath path: String) -> JSON? {
        JSON.object(self).value(atPath: path)
    }
}

extension JSON {
    /// Applies a JSON Merge Patch (RFC 7386): members of an object patch replace, `null` removes,
    /// anything else replaces the whole value. Members that stay keep their place.
    public func merging(patch: JSON) -> JSON {
        guard case .object(let patchObject) = patch else { return patch }
        var target = objectValue ?? JSONObject()
        for member in patchObject.members {
            if member.value.isNull {
                target[member.key] = nil
            } else {
                target[member.key] = (target[member.key] ?? .null).merging(patch: member.value)
            }
        }
        return .object(target)
    }
}
