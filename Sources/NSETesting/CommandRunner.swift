import Foundation

/// What a finished command printed and how it exited.
public struct CommandOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var elapsed: Duration
}

/// Runs the built `nse` binary, as a user would, for CLI tests.
public enum NSEBinary {
    /// The `nse` next to the running test bundle (the same build folder), or `$NSE_BINARY`.
    public static var path: String {
        if let override = ProcessInfo.processInfo.environment["NSE_BINARY"] { return override }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        // On macOS the bundle is a directory: .build/debug/nsePackageTests.xctest/Contents/MacOS/…
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("nse").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("nse").path
    }

    /// The package's root folder, found from this source file.
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Runs `nse` with arguments and optional standard input; kills it after `timeout`.
    public static func run(
        _ arguments: [String], stdin: String? = nil, workingDirectory: String? = nil, timeout: Duration = .seconds(60)
    ) throws -> CommandOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory ?? packageRoot)
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let start = ContinuousClock.now
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()

        // Read both pipes while the process runs so neither can fill up and block it.
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isError) in [(output, false), (errors, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isError: isError)
                group.leave()
            }
        }
        let (seconds, attoseconds) = timeout.components
        let limit = DispatchTime.now() + .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        if group.wait(timeout: limit) == .timedOut {
            process.terminate()
            group.wait()
        }
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        return CommandOutput(
            status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr, elapsed: elapsed)
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()
        func set(_ data: Data, isError: Bool) {
            lock.withLock { if isError { err = data } else { out = data } }
        }
        var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
        var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
    }
}
