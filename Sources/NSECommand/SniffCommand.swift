import ArgumentParser
import Foundation
import NSECore
import NSEMagic

extension NSE {
    struct Sniff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Says, by their bytes, whether files would be accepted as attachments by iOS.",
            discussion: """
                One line per file: kind, UTI, MIME type, size, and accepted or why not \
                (unrecognized-type, invalid-file-size, invalid-url). The file name and extension play \
                no part. Exit code 0 when every file is accepted, 2 when any is not.
                """
        )

        @Argument(help: "Files to classify.")
        var files: [String]

        @Flag(help: "Prints a JSON object per file instead.")
        var json = false

        mutating func run() async throws {
            let sniffer: MagicSniffer
            do {
                sniffer = try MagicSniffer.shared()
            } catch {
                throw CLIError("libmagic cannot start: \(error)")
            }
            // The one-line form shows libmagic's description only for refused files.
            let reports = await sniffer.reports(files: files, describe: json ? .always : .whenNeeded)
            var output = ""
            if json {
                for report in reports { output += report.jsonLine + "\n" }
            } else {
                for line in SniffReport.lines(reports) { output += line + "\n" }
            }
            FileHandle.standardOutput.write(Data(output.utf8))
            if reports.contains(where: { !$0.accepted }) { throw ExitCode(2) }
        }
    }
}
