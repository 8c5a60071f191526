import NSECore

/// An attachment description object, as Airship sends it under
/// `com.urbanairship.media_attachment`:
///
/// ```json
/// { "url": ["https://…/a.jpg"],                      // a string or a list of strings
///   "urls": [{ "url": "https://…", "url_id": "cover", "type": "jpg" }],  // or strings
///   "options": { "crop": { "x": 0.1, "y": 0, "width": 0.8, "height": 1 },
///                "time": 2.5, "hidden": false },
///   "thumbnail_id": "cover",
///   "type": "image/jpeg" }
/// ```
///
/// `options` apply to every URL: `crop` → `thumbnailClippingRect` (every member 0…1),
/// `time` → `thumbnailTime`, `hidden` → `thumbnailHidden`. With `thumbnail_id`, the other
/// attachments hide their thumbnail, as Airship's extension does. `urls` wins over `url`.
struct AirshipAttachment {
    var references: [MediaReference] = []
    var warnings: [String] = []

    init(_ object: JSONObject, keyPath: String, identifier: String) {
        var options = AttachmentOptions()
        if let type = object["type"]?.stringValue { options.typeHint = TypeHint.uti(from: type) }
        if let node = object["options"] { readOptions(node, keyPath: keyPath + ".options", into: &options) }

        var entries: [(url: String, id: String?, type: String?)] = []
        if let urls = object["urls"] {
            for (index, element) in (urls.arrayValue ?? [urls]).enumerated() {
                switch element {
                case .string(let url):
                    entries.append((url, nil, nil))
                case .object(let entry):
                    guard let url = entry["url"]?.stringValue else {
                        warnings.append("media: \(keyPath).urls.\(index) has no url string; ignored")
                        continue
                    }
                    entries.append((url, entry["url_id"]?.stringValue, entry["type"]?.stringValue))
                default:
                    warnings.append("media: \(keyPath).urls.\(index) holds \(element.typeDescription), not a URL; ignored")
                }
            }
        } else if let url = object["url"] {
            for (index, element) in (url.arrayValue ?? [url]).enumerated() {
                guard let text = element.stringValue else {
                    warnings.append("media: \(keyPath).url.\(index) holds \(element.typeDescription), not a URL; ignored")
                    continue
                }
                entries.append((text, nil, nil))
            }
        }

        let thumbnail = object["thumbnail_id"]?.stringValue
        for entry in entries where !entry.url.isEmpty {
            var own = options
            if let type = entry.type, let hint = TypeHint.uti(from: type) { own.typeHint = hint }
            if let thumbnail, own.thumbnailHidden == nil { own.thumbnailHidden = entry.id != thumbnail }
            references.append(MediaReference(url: entry.url, identifier: entry.id ?? identifier, options: own, keyPath: keyPath))
        }
    }

    private mutating func readOptions(_ node: JSON, keyPath: String, into options: inout AttachmentOptions) {
        guard let object = node.objectValue else {
            warnings.append("media: \(keyPath) holds \(node.typeDescription), not an object; ignored")
            return
        }
        if let hidden = object["hidden"] {
            if let flag = hidden.boolValue { options.thumbnailHidden = flag }
            else { warnings.append("media: \(keyPath).hidden is not true or false; ignored") }
        }
        if let time = object["time"] {
            if let seconds = time.numberValue?.doubleValue, seconds >= 0, seconds.isFinite { options.thumbnailTime = seconds }
            else { warnings.append("media: \(keyPath).time is not a number of seconds; ignored") }
        }
        if let crop = object["crop"] {
            if let rect = Self.clippingRect(crop) { options.thumbnailClippingRect = rect }
            else { warnings.append("media: \(keyPath).crop needs x, y, width and height, each from 0 to 1; ignored") }
        }
    }

    static func clippingRect(_ node: JSON) -> AttachmentOptions.ClippingRect? {
        guard let object = node.objectValue else { return nil }
        var values: [Double] = []
        for key in ["x", "y", "width", "height"] {
            guard let value = object[key]?.numberValue?.doubleValue, (0...1).contains(value) else { return nil }
            values.append(value)
        }
        return AttachmentOptions.ClippingRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}
