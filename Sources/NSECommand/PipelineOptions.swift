import ArgumentParser
import NSECore
import NSEPlugins

/// The options every command that runs a pipeline shares.
struct PipelineOptions: ParsableArguments {
    @Option(name: .long, help: "A pipeline file (YAML or JSON). Default: the built-in pipeline (Samples/pipeline.yaml).")
    var pipeline: String?

    @Option(name: .long, help: "Overrides the pipeline's deadline, e.g. 30s, 500ms.")
    var deadline: String?

    @Option(name: .long, help: "What to deliver when time runs out: original or best-attempt.")
    var onTimeout: String?

    @Option(name: .long, help: "Where attachments are written, one folder a notification. Default: $TMPDIR/nse-<uid>.")
    var scratchDir: String?

    /// Loads the pipeline and applies the overrides.
    func load() throws -> Pipeline {
        var pipeline = try self.pipeline.map { try PipelineLoader(registry: .standard).load(file: $0) }
            ?? DefaultPipeline.load()
        if let deadline {
            guard let duration = parseDuration(deadline), duration > .zero else {
                throw CLIError("--deadline: expected a duration such as 30s or 500ms, found \"\(deadline)\"")
            }
            pipeline.deadline = duration
        }
        if let onTimeout {
            guard let policy = Pipeline.TimeoutPolicy(rawValue: onTimeout) else {
                throw CLIError("--on-timeout: expected original or best-attempt, found \"\(onTimeout)\"")
            }
            pipeline.onTimeout = policy
        }
        if let scratchDir { pipeline.scratchRoot = scratchDir }
        return pipeline
    }
}

/// An error the user can act on; printed as it is, exit code 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
