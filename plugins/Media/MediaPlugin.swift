import NSECore
import NSECurl
import NSEMagic

extension ModifierPlugin {
    /// `media`: downloads the media URLs a payload names (the common SDKs' keys by default)
    /// and attaches them. See ``MediaModifier`` and docs/media.md.
    ///
    /// ```yaml
    /// network: { allow-private: false }   # loopback and private addresses are refused
    /// steps:
    ///   - media: { keys: [media-url, fcm_options.image], max-attachments: 3 }
    /// ```
    ///
    /// The pipeline's `limits` cut transfers early; its `network.allow-private` decides whether
    /// private addresses may be fetched.
    public static let media = ModifierPlugin(
        name: "media", summary: "downloads the media URLs in the payload (common SDK keys) as attachments"
    ) { options, environment in
        try MediaOptions.make(options, environment: environment)
    }
}

/// Reads the `media` step's options.
enum MediaOptions {
    static let keys = ["keys", "max-attachments"]

    static func make(_ options: ConfigValue, environment: PluginEnvironment) throws -> MediaModifier {
        try options.checkKeys(keys)
        var paths = MediaModifier.defaultKeys
        if let node = options["keys"] {
            paths = try node.stringList()
            guard !paths.isEmpty else { throw node.error("list at least one key path, e.g. [media-url, fcm_options.image]") }
            for (index, path) in paths.enumerated() where path.isEmpty || path.hasPrefix(".") || path.hasSuffix(".") {
                throw ConfigurationError(path: "\(node.path)[\(index)]", message: "\"\(path)\" is not a key path such as fcm_options.image")
            }
        }
        var maxAttachments = MediaModifier.defaultMaxAttachments
        if let node = options["max-attachments"] {
            maxAttachments = try node.int()
            guard maxAttachments > 0 else { throw node.error("max-attachments must be at least 1") }
        }
        let downloader: Downloader
        do {
            downloader = try MediaDownloaders.shared(allowPrivateNetwork: environment.allowPrivateNetwork)
        } catch {
            throw options.error("the downloader cannot start: \(error)")
        }
        let sniffer: MagicSniffer
        do {
            sniffer = try MagicSniffer.shared()
        } catch {
            throw options.error("libmagic cannot start: \(error)")
        }
        return MediaModifier(
            keys: paths, maxAttachments: maxAttachments, limits: environment.limits,
            downloader: downloader, sniffer: sniffer)
    }
}
