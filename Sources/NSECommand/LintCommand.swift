import ArgumentParser
import Foundation
import NSECore

extension NSE {
    struct Lint: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints what APNs or iOS would object to in payload files, one warning a line.",
            discussion: "Exit code 0 when the files could be read (with or without warnings; --strict: 2 when any has warnings), 1 when one could not."
        )

        @Argument(help: "Payload files (.apns or .json), or - for standard input.")
        var files: [String]

        @Flag(help: "Exit with 2 when there are warnings.")
        var strict = false

        @Flag(help: "Prints a JSON object per file: {\"file\":…,\"gate\":…,\"warnings\":[…]}.")
        var json = false

        mutating func run() async throws {
            var failed = false
            var warned = false
            for file in files {
                let request: NotificationRequest
                do {
                    request = try PayloadInput.request(file, id: nil, receivedAt: .now)
                } catch {
                    printError(error)
                    failed = true
                    continue
                }
                let size = request.originalText?.count ?? JSON.object(request.payload).serialized().count
                let warnings = PayloadLinter.lint(request.payload, byteCount: size)
                warned = warned || !warnings.isEmpty
                let gate = Pipeline.gateDecision(request.content)
                if json {
                    let object: JSON = [
                        "file": .string(file),
                        "gate": .string(gate ?? "runs"),
                        "warnings": .array(warnings.map(JSON.string)),
                    ]
                    print(object.text())
                } else {
                    let prefix = files.count > 1 ? "\(file): " : ""
                    for warning in warnings { print(prefix + warning) }
                }
            }
            if failed { throw ExitCode(1) }
            if strict && warned { throw ExitCode(2) }
        }
    }
}
