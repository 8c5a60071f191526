// Prints figures for the media step, through a full pipeline (download + libmagic validation),
// against a local HTTP server; not a test.
//
//   MediaBenchmark distinct BASE COUNT SCRATCH          COUNT payloads, image BASE/img-<i>.jpg each
//   MediaBenchmark campaign BASE REQUESTS URLS SCRATCH  REQUESTS payloads sharing URLS image URLs
//   MediaBenchmark rss BASE COUNT SCRATCH               COUNT payloads at once, each a 50 MB video
//                                                       BASE/big.mp4?n=<i>
//   MediaBenchmark dirs - COUNT SCRATCH                 only makes COUNT directories in SCRATCH as
//                                                       the pipeline makes each notification's
//                                                       (mkdtemp): the file system's share
//
// IN_FLIGHT=N (environment) keeps at most N payloads in the pipeline at once, starting the next
// as one finishes, as a bulk runner or a sidecar with a concurrency limit does; 0 or unset
// starts them all at once. The rss mode always starts them all at once.
//
// The notifications' scratch directories are left in SCRATCH for the caller to remove after
// the clock, as the script does with curl's files.
import Foundation
import MediaPlugin
import NSECore
import NSEMagic
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    print("usage: MediaBenchmark distinct|campaign|rss BASE N [URLS] SCRATCH")
    exit(2)
}
let mode = arguments[1], base = arguments[2], count = Int(arguments[3])!
let scratch = arguments.last!

let registry = ModifierRegistry([.media]) { limits in
    MagicAttachmentValidator(sniffer: try MagicSniffer.shared(), limits: limits)
}
let pipeline = try PipelineLoader(registry: registry).load(text: """
    deadline: 300s
    network: { allow-private: true }
    scratch-dir: \(scratch)
    steps: [media]
    """, baseDirectory: scratch)

/// Hands out request numbers to workers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
}

/// Runs one payload per URL, at most `inFlight` at once (0: all at once), as a bulk runner
/// does: `inFlight` workers each take the next payload when done with one. Every notification
/// must end with one attachment. Each result is checked and let go as it comes, as `nse run`
/// writes each result out and keeps none.
func run(_ urls: [String], inFlight: Int) async -> (time: Duration, accepted: Int) {
    // The payloads as text: reading them is part of nse's work, so it is timed.
    let payloads = urls.map { url in
        Array(#"{"aps":{"alert":{"title":"Sale","body":"New"},"mutable-content":1},"image":"\#(url)"}"#.utf8)
    }
    let workers = inFlight > 0 ? min(inFlight, payloads.count) : payloads.count
    let next = Counter()
    let clock = ContinuousClock()
    let started = clock.now
    let (accepted, failures) = await withTaskGroup(of: (Int, [String]).self) { group in
        for _ in 0..<workers {
            group.addTask {
                var accepted = 0
                var failures: [String] = []
                while true {
                    let index = next.take()
                    guard index < payloads.count else { return (accepted, failures) }
                    let request = try! NotificationRequest(id: "n\(index)", json: payloads[index])
                    let result = await pipeline.process(request)
                    accepted += result.attachments.count
                    if result.attachments.count != 1 {
                        failures.append("\(result.id): \(result.rejected.first?.detail ?? "no attachment")")
                    }
                }
            }
        }
        return await group.reduce(into: (0, [String]())) { $0.0 += $1.0; $0.1 += $1.1 }
    }
    let elapsed = clock.now - started
    for failure in failures { print(failure) }
    return (elapsed, accepted)
}

func milliseconds(_ d: Duration) -> Int {
    Int(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
}

func peakRSS() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "?"
}

let inFlight = ProcessInfo.processInfo.environment["IN_FLIGHT"].flatMap { Int($0) } ?? 0
let shape = inFlight > 0 ? "at most \(inFlight) in flight" : "all at once"
switch mode {
case "distinct":
    let (time, accepted) = await run((0..<count).map { "\(base)/img-\($0).jpg" }, inFlight: inFlight)
    print("nse media distinct: \(count) payloads (\(shape)), \(accepted) attachments in \(milliseconds(time)) ms; peak RSS (VmHWM) \(peakRSS())")
case "campaign":
    let urls = Int(arguments[4])!
    let (time, accepted) = await run((0..<count).map { "\(base)/img-\($0 % urls).jpg" }, inFlight: inFlight)
    print("nse media campaign: \(count) payloads over \(urls) URLs (\(shape)), \(accepted) attachments in \(milliseconds(time)) ms; peak RSS (VmHWM) \(peakRSS())")
case "dirs":
    // No pipeline: the cost of one directory per notification on this file system, alone.
    let clock = ContinuousClock()
    let started = clock.now
    for index in 0..<count {
        var template = Array("\(scratch)/n\(index)-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { print("mkdtemp failed in \(scratch)"); exit(1) }
    }
    print("\(count) notification directories alone (mkdtemp): \(milliseconds(clock.now - started)) ms")
case "rss":
    let (time, accepted) = await run((0..<count).map { "\(base)/big.mp4?n=\($0)" }, inFlight: 0)
    print("nse media rss: \(count) concurrent 50 MB videos, \(accepted) attachments in \(milliseconds(time)) ms; peak RSS (VmHWM) \(peakRSS())")
default:
    print("unknown mode \(mode)")
    exit(2)
}
// The downloader's work folder (partial and cached bodies) is removed before exit, as `nse run` does.
MediaDownloaders.shutdownAll()
