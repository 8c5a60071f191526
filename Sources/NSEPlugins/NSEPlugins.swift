import DecryptPlugin
import MediaPlugin
import NSECore
import NSEMagic
import RewritePlugin

extension ModifierRegistry {
    /// Every plugin nse ships, and libmagic attachment validation as the system stage.
    /// Surfaces build pipelines through this registry and know no plugin by type.
    public static let standard = ModifierRegistry([.delay, .decrypt, .rewrite, .media]) { limits in
        MagicAttachmentValidator(sniffer: try MagicSniffer.shared(), limits: limits)
    }
}

/// The pipeline used when none is given: `Samples/pipeline.yaml` holds the same text.
public enum DefaultPipeline {
    public static let yaml = """
        # The pipeline nse uses when none is given: download the media the common SDKs' keys name,
        # and check every attachment by its bytes as iOS would.
        deadline: 30s
        on-timeout: original
        limits: { audio: 5MB, image: 10MB, video: 50MB }
        network: { allow-private: false }
        steps:
          - media

        """

    /// Builds the default pipeline; relative paths would be read against `baseDirectory`.
    public static func load(registry: ModifierRegistry = .standard, baseDirectory: String = ".") throws -> Pipeline {
        try PipelineLoader(registry: registry).load(text: yaml, baseDirectory: baseDirectory)
    }
}

/// What the standard plugins share across pipelines and notifications.
public enum SharedPluginResources {
    /// Releases it (the media step's downloaders and their work folders). Call before the
    /// process exits; a pipeline used afterwards makes them again.
    public static func release() {
        MediaDownloaders.shutdownAll()
    }
}
