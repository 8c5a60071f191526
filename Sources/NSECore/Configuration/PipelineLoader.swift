import Foundation
import Logging
import Yams

/// Builds a `Pipeline` from a YAML or JSON configuration (the same keys in both):
///
/// ```yaml
/// deadline: 30s
/// on-timeout: original          # or best-attempt
/// limits: { audio: 5MB, image: 10MB, video: 50MB }
/// network: { allow-private: false }
/// steps:
///   - decrypt: { keys: keys.jwks.json, on-error: original }
///   - media
/// ```
///
/// Unknown keys, bad values and missing files are errors that name the key path.
public struct PipelineLoader: Sendable {
    public var registry: ModifierRegistry
    public var logger: Logger

    static let topLevelKeys = ["deadline", "on-timeout", "limits", "network", "scratch-dir", "steps"]

    public init(registry: ModifierRegistry, logger: Logger = Logger(label: "nse")) {
        self.registry = registry
        self.logger = logger
    }

    /// Loads a configuration file; `.json` files are read as JSON, anything else as YAML.
    public func load(file path: String) throws(ConfigurationError) -> Pipeline {
        let url = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ConfigurationError(path: "", message: "cannot read the pipeline file: \(error.localizedDescription)", file: path)
        }
        do {
            return try load(text: text, baseDirectory: url.deletingLastPathComponent().path, json: url.pathExtension.lowercased() == "json")
        } catch {
            var error = error
            error.file = path
            throw error
        }
    }

    /// Loads a configuration from text; relative paths are read against `baseDirectory`.
    public func load(text: String, baseDirectory: String, json: Bool = false) throws(ConfigurationError) -> Pipeline {
        let value: JSON
        if json {
            do {
                value = try JSON(parsing: text)
            } catch {
                throw ConfigurationError(path: "", message: "not valid JSON: \(error)")
            }
        } else {
            value = try YAMLReader.read(text)
        }
        return try build(ConfigValue(json: value, baseDirectory: baseDirectory))
    }

    /// Builds a pipeline from a configuration already read.
    public func build(_ root: ConfigValue) throws(ConfigurationError) -> Pipeline {
        if root.json.isNull { return Pipeline(logger: logger) }
        guard root.json.objectValue != nil else {
            throw root.error("a pipeline configuration is an object with the keys \(Self.topLevelKeys.joined(separator: ", "))")
        }
        try root.checkKeys(Self.topLevelKeys)
        var pipeline = Pipeline(logger: logger)
        if let deadline = root["deadline"] {
            pipeline.deadline = try deadline.duration()
            guard pipeline.deadline > .zero else { throw deadline.error("the deadline must be more than zero") }
        }
        if let onTimeout = root["on-timeout"] {
            pipeline.onTimeout = try onTimeout.oneOf(Pipeline.TimeoutPolicy.self)
        }
        var limits = AttachmentLimits.ios
        if let node = root["limits"] {
            try node.checkKeys(AttachmentKind.allCases.map(\.rawValue))
            for kind in AttachmentKind.allCases {
                guard let size = node[kind.rawValue] else { continue }
                limits[kind] = try size.byteSize()
                guard limits[kind] > 0 else { throw size.error("a limit must be more than zero bytes") }
            }
        }
        var allowPrivate = false
        if let network = root["network"] {
            try network.checkKeys(["allow-private"])
            allowPrivate = try network["allow-private"]?.bool() ?? false
        }
        if let scratch = root["scratch-dir"] {
            pipeline.scratchRoot = try scratch.filePath(mustExist: false)
        }
        let environment = PluginEnvironment(
            baseDirectory: root.baseDirectory, limits: limits, allowPrivateNetwork: allowPrivate, logger: logger)
        if let steps = root["steps"] {
            for step in try steps.array() {
                pipeline.steps.append(try makeStep(step, environment: environment))
            }
        }
        do {
            pipeline.validator = try registry.makeValidator?(limits)
        } catch {
            throw ConfigurationError(path: "limits", message: "attachment validation cannot start: \(error)")
        }
        return pipeline
    }

    /// A step is a name (`- media`) or a name with options (`- media: { keys: [image] }`).
    func makeStep(_ node: ConfigValue, environment: PluginEnvironment) throws(ConfigurationError) -> Pipeline.Step {
        let name: String
        var options: JSON
        switch node.json {
        case .string(let text):
            name = text
            options = .null
        case .object(let object) where object.count == 1:
            name = object.members[0].key
            options = object.members[0].value
        default:
            throw node.error("a step is a plugin name, or an object with one key, the plugin name, holding its options")
        }
        guard let plugin = registry.plugin(named: name) else {
            let path = node.json.objectValue == nil ? node.path : "\(node.path).\(name)"
            throw ConfigurationError(path: path, message: "no plugin is named \"\(name)\"; known plugins: \(registry.names.joined(separator: ", "))")
        }
        let optionsNode = ConfigValue(json: options, path: "\(node.path).\(name)", baseDirectory: node.baseDirectory)
        _ = try optionsNode.keys()
        // `on-error` belongs to every step; the plugin sees only its own options.
        var onError = Pipeline.ErrorPolicy.skip
        if let policy = optionsNode["on-error"] {
            onError = try policy.oneOf(Pipeline.ErrorPolicy.self)
            if case .object(var object) = options {
                object["on-error"] = nil
                options = .object(object)
            }
        }
        let pluginOptions = ConfigValue(json: options, path: optionsNode.path, baseDirectory: node.baseDirectory)
        do {
            return Pipeline.Step(try plugin.make(pluginOptions, environment), onError: onError)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw pluginOptions.error("\(error)")
        }
    }
}

/// Reads YAML into JSON values with the YAML 1.2 core schema for plain scalars (so `on`/`no`
/// stay strings); quoted scalars are always strings.
enum YAMLReader {
    static func read(_ text: String) throws(ConfigurationError) -> JSON {
        let node: Node?
        do {
            // Scalars are typed below, not by Yams' tags: its default resolver would compile
            // its regular expressions (a few milliseconds of every start) for nothing.
            node = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw ConfigurationError(path: "", message: "not valid YAML: \(error)")
        } catch {
            throw ConfigurationError(path: "", message: "not valid YAML: \(error)")
        }
        guard let node else { return .null }
        return try convert(node, path: "")
    }

    static func convert(_ node: Node, path: String) throws(ConfigurationError) -> JSON {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain else { return .string(scalar.string) }
            let text = scalar.string
            switch text {
            case "", "~", "null", "Null", "NULL": return .null
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default:
                if let number = try? JSON(parsing: text), case .number = number { return number }
                return .string(text)
            }
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw ConfigurationError(path: path, message: "a key must be a plain string")
                }
                let childPath = path.isEmpty ? keyScalar.string : "\(path).\(keyScalar.string)"
                if object[keyScalar.string] != nil {
                    throw ConfigurationError(path: childPath, message: "this key appears twice")
                }
                object[keyScalar.string] = try convert(value, path: childPath)
            }
            return .object(object)
        case .sequence(let sequence):
            var elements: [JSON] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, path: "\(path)[\(index)]"))
            }
            return .array(elements)
        case .alias:
            throw ConfigurationError(path: path, message: "YAML aliases are not supported")
        }
    }
}
