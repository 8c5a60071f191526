import ArgumentParser

@main
struct NSE: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nse",
        abstract: "Runs iOS Notification Service Extension logic on push payloads, headless.",
        discussion: """
            Exit codes: 0 the notification was delivered (modified, unchanged, skipped or fallback); \
            1 bad input or configuration (the message is on stderr); 64 a usage error.
            """,
        version: "0.1.0",
        subcommands: [Run.self, Lint.self, Sniff.self, Keys.self]
    )
}
