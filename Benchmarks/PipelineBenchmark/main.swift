// The pure pipeline cost: payloads per second through parse → gate → one step → serialize,
// side by side with jq doing the same edit on the same file.
//
//   swift run -c release PipelineBenchmark [--count 100000] [--in-flight 64] [--runs 3] [--no-jq] [--stages]
//
// `--stages` prints what each stage costs instead (see Stages.swift).
//
// The step prefixes the title with "x ", as `jq -c '.aps.alert.title |= "x " + .'` does.

import Foundation
import NSECore
import Synchronization

struct PrefixTitle: SynchronousModifier {
    let name = "prefix-title"
    func modifySynchronously(_ content: inout NotificationContent, context: ModifierContext) throws {
        content.title = "x " + (content.title ?? "")
    }
}

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else {
        return value
    }
    return number
}

/// CPU time of the whole process (all threads), to tell work from waiting.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// How many lines carry their message id exactly as generated.
func exactIDs(_ bytes: [UInt8]) -> Int {
    var exact = 0
    for (index, line) in lineRanges(bytes).enumerated() {
        let needle = Array("\"_j_msgid\":\(29273432613945685 + index),".utf8)
        if bytes[line].firstRange(of: needle) != nil { exact += 1 }
    }
    return exact
}

/// Hands out block numbers to workers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
}

/// The byte ranges of the lines in `bytes` (without their newlines).
func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var start = 0
        while start < raw.count {
            let newline = memchr(base + start, 0x0A, raw.count - start)
            let end = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? raw.count
            if end > start { ranges.append(start..<end) }
            start = end + 1
        }
    }
    return ranges
}

/// Processes every line with `workers` workers, as the batch mode does: each worker takes the
/// next block of lines, processes them in order into one buffer and takes another, so no task
/// is made a payload and the results need no reassembly. Off the main actor, so nothing hops
/// back to the main thread. The blocks come back in input order.
nonisolated func processAll(_ input: [UInt8], lines: [Range<Int>], pipeline: Pipeline, workers: Int) async -> [[UInt8]] {
    let blockSize = 256
    let blockCount = (lines.count + blockSize - 1) / blockSize
    let next = Counter()
    let parts = await withTaskGroup(of: [(Int, [UInt8])].self) { group in
        for _ in 0..<workers {
            group.addTask {
                var done: [(Int, [UInt8])] = []
                while true {
                    let block = next.take()
                    guard block < blockCount else { return done }
                    var output: [UInt8] = []
                    output.reserveCapacity(blockSize * 320)
                    for index in block * blockSize..<min(lines.count, (block + 1) * blockSize) {
                        if let request = try? NotificationRequest(id: String(index), json: input[lines[index]]) {
                            output.append(contentsOf: await pipeline.process(request).contentJSON())
                        }
                        output.append(0x0A)
                    }
                    done.append((block, output))
                }
            }
        }
        var all: [[(Int, [UInt8])]] = []
        for await part in group { all.append(part) }
        return all
    }
    var blocks = [[UInt8]](repeating: [], count: blockCount)
    for part in parts {
        for (block, bytes) in part { blocks[block] = bytes }
    }
    return blocks
}

/// Reads a whole file into bytes, with no intermediate copy.
func readFile(_ path: String) throws -> [UInt8] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    return [UInt8](try handle.readToEnd() ?? Data())
}

/// Writes the blocks to a file in order.
func writeBlocks(_ blocks: [[UInt8]], to path: String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    for block in blocks { try handle.write(contentsOf: block) }
}

let count = argument("--count", default: 100_000)
let inFlight = argument("--in-flight", default: 64)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nse-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
// Removed explicitly: a top-level `defer` does not run when the program ends through exit().
func removeWorkFolder() { try? FileManager.default.removeItem(at: folder) }

// The input: varied payloads with a message id too large for a Double.
let input = folder.appendingPathComponent("payloads.jsonl")
var text = ""
text.reserveCapacity(count * 300)
for index in 0..<count {
    text += #"{"aps":{"alert":{"title":"Title \#(index)","body":"Hello there, this is message number \#(index) with some text"},"sound":"default","badge":\#(index % 10),"mutable-content":1,"thread-id":"t\#(index % 50)"},"_j_msgid":\#(29273432613945685 + index),"sender":{"id":\#(index),"name":"User \#(index)"},"media-url":"https://cdn.example.com/img/\#(index).jpg"}"#
    text += "\n"
}
try text.write(to: input, atomically: true, encoding: .utf8)
let inputBytes = try Data(contentsOf: input)
print("input: \(count) payloads, \(inputBytes.count) bytes, \(inFlight) in flight")

let pipeline = Pipeline(steps: [.init(PrefixTitle())])
if CommandLine.arguments.contains("--stages") {
    let text = try readFile(input.path)
    for _ in 0..<3 { await printStageCosts(lineRanges(text).map { text[$0] }, pipeline: pipeline) }
    removeWorkFolder()
    exit(0)
}
/// One nse run: read the file, split it into lines, process, write the outputs in order.
func runNSE(output: URL) async throws -> (rate: Double, cpuPerPayload: Double) {
    let start = ContinuousClock.now
    let cpuStart = cpuSeconds()
    let inputText = try readFile(input.path)
    let blocks = await processAll(inputText, lines: lineRanges(inputText), pipeline: pipeline, workers: inFlight)
    try writeBlocks(blocks, to: output.path)
    let time = ContinuousClock.now - start
    return (Double(count) / seconds(time), (cpuSeconds() - cpuStart) / Double(count))
}

/// One jq run on the same file; `nil` when jq cannot be run.
func runJQ(output: URL) throws -> Double? {
    let jq = Process()
    jq.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    jq.arguments = ["jq", "-c", #".aps.alert.title |= "x " + ."#, input.path]
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    jq.standardOutput = try FileHandle(forWritingTo: output)
    let start = ContinuousClock.now
    do {
        try jq.run()
    } catch {
        print("jq: not run (\(error)); install it with apt-get install -y jq")
        return nil
    }
    jq.waitUntilExit()
    let time = ContinuousClock.now - start
    guard jq.terminationStatus == 0 else {
        print("jq: exited with status \(jq.terminationStatus)")
        return nil
    }
    return Double(count) / seconds(time)
}

// Runs alternate, so a machine that gets busier or quieter affects both alike; the ratio of
// each pair and the median of the ratios are printed.
let runs = argument("--runs", default: 3)
let nseOutput = folder.appendingPathComponent("nse.jsonl")
let jqOutput = folder.appendingPathComponent("jq.jsonl")
let withJQ = !CommandLine.arguments.contains("--no-jq")
var ratios: [Double] = []
for run in 1...max(runs, 1) {
    let nse = try await runNSE(output: nseOutput)
    var line = String(format: "run %d: nse %.0f payloads/s (%.1f µs CPU a payload, exact ids %d/%d)",
                      run, nse.rate, nse.cpuPerPayload * 1e6, exactIDs(try readFile(nseOutput.path)), count)
    if withJQ, let jqRate = try runJQ(output: jqOutput) {
        line += String(format: "; jq %.0f payloads/s (exact ids %d/%d); ratio %.2fx",
                       jqRate, exactIDs(try readFile(jqOutput.path)), count, nse.rate / jqRate)
        ratios.append(nse.rate / jqRate)
    }
    print(line)
}
if !ratios.isEmpty {
    let median = ratios.sorted()[ratios.count / 2]
    print(String(format: "ratio: nse is %.2fx jq's rate, the median of %d runs (goal: at least 3x)", median, ratios.count))
}
removeWorkFolder()
