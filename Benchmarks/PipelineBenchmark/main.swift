// The pure pipeline cost: payloads per second through parse → gate → one step → serialize,
// side by side with jq doing the same edit on the same file.
//
//   swift run -c release PipelineBenchmark [--count 100000] [--in-flight 64] [--no-jq]
//
// The step prefixes the title with "x ", as `jq -c '.aps.alert.title |= "x " + .'` does.

import Foundation
import NSECore
import Synchronization

struct PrefixTitle: Modifier {
    let name = "prefix-title"
    var neverBlocks: Bool { true }
    func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {
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
func exactIDs(_ data: Data) -> Int {
    var exact = 0
    for (index, line) in data.split(separator: 0x0A).enumerated() {
        let needle = Array("\"_j_msgid\":\(29273432613945685 + index),".utf8)
        if line.firstRange(of: needle) != nil { exact += 1 }
    }
    return exact
}

/// Hands out line numbers to workers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
}

/// Processes every line with `workers` notifications in flight at once, as the batch mode
/// does: each worker takes the next line, processes it and takes another, so no task is made
/// a payload. Off the main actor, so nothing hops back to the main thread. Outputs come back
/// in input order.
nonisolated func processAll(_ lines: [ArraySlice<UInt8>], pipeline: Pipeline, workers: Int) async -> [UInt8] {
    let next = Counter()
    let parts = await withTaskGroup(of: [(Int, [UInt8])].self) { group in
        for _ in 0..<workers {
            group.addTask {
                var done: [(Int, [UInt8])] = []
                while true {
                    let index = next.take()
                    guard index < lines.count else { return done }
                    guard let request = try? NotificationRequest(id: String(index), json: lines[index]) else {
                        done.append((index, []))
                        continue
                    }
                    done.append((index, await pipeline.process(request).contentJSON()))
                }
            }
        }
        var all: [[(Int, [UInt8])]] = []
        for await part in group { all.append(part) }
        return all
    }
    var results = [[UInt8]](repeating: [], count: lines.count)
    for part in parts {
        for (index, bytes) in part { results[index] = bytes }
    }
    var output: [UInt8] = []
    output.reserveCapacity(lines.reduce(0) { $0 + $1.count + 8 })
    for bytes in results {
        output.append(contentsOf: bytes)
        output.append(0x0A)
    }
    return output
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

// nse: read the file, split it into lines, process, write the outputs in order.
let pipeline = Pipeline(steps: [.init(PrefixTitle())])
let nseOutput = folder.appendingPathComponent("nse.jsonl")
let nseStart = ContinuousClock.now
let nseCPUStart = cpuSeconds()
let lines = Array(try Data(contentsOf: input)).split(separator: 0x0A)
let nseBytes = await processAll(lines, pipeline: pipeline, workers: inFlight)
try Data(nseBytes).write(to: nseOutput)
let nseTime = ContinuousClock.now - nseStart
let nseCPU = cpuSeconds() - nseCPUStart
let nseRate = Double(count) / seconds(nseTime)
print(String(format: "nse: %.2f s, %.0f payloads/s, %.1f µs CPU a payload, exact ids %d/%d",
             seconds(nseTime), nseRate, nseCPU / Double(count) * 1e6, exactIDs(Data(nseBytes)), count))

if CommandLine.arguments.contains("--no-jq") {
    removeWorkFolder()
    exit(0)
}

// jq on the same file.
let jqOutput = folder.appendingPathComponent("jq.jsonl")
let jq = Process()
jq.executableURL = URL(fileURLWithPath: "/usr/bin/env")
jq.arguments = ["jq", "-c", #".aps.alert.title |= "x " + ."#, input.path]
_ = FileManager.default.createFile(atPath: jqOutput.path, contents: nil)
jq.standardOutput = try FileHandle(forWritingTo: jqOutput)
let jqStart = ContinuousClock.now
do {
    try jq.run()
    jq.waitUntilExit()
    let jqTime = ContinuousClock.now - jqStart
    guard jq.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    let jqRate = Double(count) / seconds(jqTime)
    let jqData = try Data(contentsOf: jqOutput)
    print(String(format: "jq:  %.2f s, %.0f payloads/s, exact ids %d/%d", seconds(jqTime), jqRate, exactIDs(jqData), count))
    print(String(format: "ratio: nse is %.2fx jq's rate (goal: at least 3x)", nseRate / jqRate))
} catch {
    print("jq: not run (\(error)); install it with apt-get install -y jq")
}
removeWorkFolder()
