import Logging

/// What a plugin's factory is given besides its own options.
public struct PluginEnvironment: Sendable {
    /// The folder of the configuration file: relative paths in options are read against it.
    public var baseDirectory: String
    /// The attachment limits of the pipeline.
    public var limits: AttachmentLimits
    /// `network.allow-private`: private, loopback and link-local addresses may be fetched.
    public var allowPrivateNetwork: Bool
    public var logger: Logger

    public init(
        baseDirectory: String, limits: AttachmentLimits = .ios, allowPrivateNetwork: Bool = false,
        logger: Logger = Logger(label: "nse")
    ) {
        self.baseDirectory = baseDirectory
        self.limits = limits
        self.allowPrivateNetwork = allowPrivateNetwork
        self.logger = logger
    }
}

/// A kind of step a configuration can name, and how to make one from its options.
public struct ModifierPlugin: Sendable {
    /// The step's name in a configuration, e.g. `decrypt`.
    public let name: String
    /// One line for `nse plugins` and docs.
    public let summary: String
    /// Makes the modifier; throws `ConfigurationError` with the option's path on bad options.
    public let make: @Sendable (ConfigValue, PluginEnvironment) throws -> any Modifier

    public init(
        name: String, summary: String,
        make: @escaping @Sendable (ConfigValue, PluginEnvironment) throws -> any Modifier
    ) {
        self.name = name
        self.summary = summary
        self.make = make
    }
}

/// Maps step names to plugins. Surfaces (CLI, batch, server) know plugins only through it.
public struct ModifierRegistry: Sendable {
    private var plugins: [String: ModifierPlugin] = [:]
    /// Makes the attachment validator for a pipeline's limits (the system stage); an error is
    /// reported as a configuration error.
    public var makeValidator: (@Sendable (AttachmentLimits) throws -> any AttachmentValidator)?

    public init(
        _ plugins: [ModifierPlugin] = [],
        makeValidator: (@Sendable (AttachmentLimits) throws -> any AttachmentValidator)? = nil
    ) {
        for plugin in plugins { register(plugin) }
        self.makeValidator = makeValidator
    }

    /// Adds a plugin, replacing one of the same name.
    public mutating func register(_ plugin: ModifierPlugin) {
        plugins[plugin.name] = plugin
    }

    public func plugin(named name: String) -> ModifierPlugin? { plugins[name] }

    /// Every registered name, sorted.
    public var names: [String] { plugins.keys.sorted() }

    /// The plugins NSECore itself provides.
    public static let builtins = ModifierRegistry([.delay])
}
