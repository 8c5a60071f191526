import ArgumentParser
import Foundation
import NSECore
import NSEPlugins

extension NSE {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs the pipeline on payload files and prints one result each (JSON).",
            discussion: """
                Each FILE is a JSON payload or an .apns file (the format `xcrun simctl push` reads; \
                its "Simulator Target Bundle" key is ignored). `-` reads standard input. \
                The result format is described in docs/result-format.md.
                """
        )

        @Argument(help: "Payload files (.apns or .json), or - for standard input.")
        var files: [String]

        @OptionGroup var pipelineOptions: PipelineOptions

        @Option(help: "The notification id in the result. Default: the file name without extension.")
        var id: String?

        @Flag(help: "Pretty-prints the result for people.")
        var pretty = false

        mutating func run() async throws {
            let pipeline = try pipelineOptions.load()
            var failed = false
            for file in files {
                let request: NotificationRequest
                do {
                    request = try PayloadInput.request(file, id: files.count == 1 ? id : nil, receivedAt: .now)
                } catch {
                    // One bad file does not stop the others: it gets an error result in its place,
                    // the message goes to stderr too, and the exit code says something failed.
                    printError(error)
                    failed = true
                    let reason = FileManager.default.isReadableFile(atPath: file) || file == "-" ? "invalid-payload" : "unreadable"
                    write(NotificationResult.failed(id: PayloadInput.defaultID(file), reason: reason, error: "\(error)"))
                    continue
                }
                write(await pipeline.process(request))
            }
            // The media step's downloaders keep a work folder until they are shut down.
            SharedPluginResources.release()
            if failed { throw ExitCode(1) }
        }

        func write(_ result: NotificationResult) {
            var output = result.serialized(style: pretty ? .pretty : .compact)
            output.append(0x0A)
            FileHandle.standardOutput.write(Data(output))
        }
    }
}

func printError(_ error: Error) {
    FileHandle.standardError.write(Data("nse: \(error)\n".utf8))
}
