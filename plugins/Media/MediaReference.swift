import NSECore

/// One media URL found in a payload, with what the payload says about it.
public struct MediaReference: Sendable, Hashable {
    /// The URL as the payload wrote it.
    public var url: String
    /// The identifier the attachment should have (made unique later, e.g. `image-2`).
    public var identifier: String
    /// Display options the payload gives (Airship crop/time/hidden, a type hint).
    public var options: AttachmentOptions
    /// The key path the URL was found at, for warnings.
    public var keyPath: String

    /// A reference with the given fields.
    public init(url: String, identifier: String, options: AttachmentOptions = AttachmentOptions(), keyPath: String) {
        self.url = url
        self.identifier = identifier
        self.options = options
        self.keyPath = keyPath
    }
}
