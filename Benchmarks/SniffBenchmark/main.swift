// Figures for the libmagic sniffer; an executable, not a test, because it measures.
//
//   SniffBenchmark handles [FILE…]   pooled handles against one handle per call
//   SniffBenchmark sniff [--json] FILE…   classify files like `nse sniff`, one line each
import Foundation
import NSEMagic

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func compareHandles(files: [String]) throws {
    let rounds = 2_000
    let pooled = try MagicSniffer()
    var answers = 0
    let poolTime = try seconds {
        for index in 0..<rounds { answers += try pooled.sniff(file: files[index % files.count]).isSupported ? 1 : 0 }
    }
    // What a sniffer without a pool pays: open a handle and load the database for every file.
    let freshRounds = 200
    let freshTime = try seconds {
        for index in 0..<freshRounds {
            answers += try MagicSniffer(poolSize: 1).sniff(file: files[index % files.count]).isSupported ? 1 : 0
        }
    }
    // The cost of a handle alone: magic_open + magic_load + magic_close.
    let loadTime = try seconds {
        for _ in 0..<freshRounds { _ = try MagicSniffer(poolSize: 1) }
    }
    let perPool = poolTime / Double(rounds) * 1e6
    let perFresh = freshTime / Double(freshRounds) * 1e6
    let perLoad = loadTime / Double(freshRounds) * 1e6
    func format(_ value: Double) -> String { String(format: "%8.1f", value) }
    print("files:               \(files.count) distinct, \(answers) accepted answers")
    print("pooled handles:      \(format(perPool)) µs per file (\(rounds) files)")
    print("one handle per call: \(format(perFresh)) µs per file (\(freshRounds) files)")
    print("  of which the load: \(format(perLoad)) µs (magic_open + magic_load + magic_close)")
    print("ratio:               \(format(perFresh / perPool))x")
}

func sniff(files: [String], json: Bool) async throws {
    let sniffer = try MagicSniffer()
    // The one-line form shows libmagic's description only for refused files: ask only then.
    let reports = await sniffer.reports(files: files, describe: json ? .always : .whenNeeded)
    var out = ""
    out.reserveCapacity(files.count * 80)
    for report in reports { out += (json ? report.jsonLine : report.line) + "\n" }
    FileHandle.standardOutput.write(Data(out.utf8))
}

var arguments = CommandLine.arguments.dropFirst()
let mode = arguments.popFirst() ?? "handles"
switch mode {
case "handles":
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let media = here.appendingPathComponent("../../Tests/Fixtures/media").standardized.path
    let files = arguments.isEmpty
        ? try FileManager.default.contentsOfDirectory(atPath: media).filter { !$0.hasSuffix(".sh") }.map { media + "/" + $0 }
        : Array(arguments)
    try compareHandles(files: files)
case "sniff":
    let json = arguments.first == "--json"
    try await sniff(files: Array(json ? arguments.dropFirst() : arguments), json: json)
default:
    FileHandle.standardError.write(Data("usage: SniffBenchmark handles [FILE…] | sniff [--json] FILE…\n".utf8))
    exit(2)
}
