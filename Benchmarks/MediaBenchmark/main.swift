// Prints figures for the media step, through a full pipeline (download + libmagic validation),
// against a local HTTP server; not a test.
//
//   MediaBenchmark distinct BASE COUNT SCRATCH          COUNT payloads, image BASE/img-<i>.jpg each
//   MediaBenchmark campaign BASE REQUESTS URLS SCRATCH  REQUESTS payloads sharing URLS image URLs
//   MediaBenchmark rss BASE COUNT SCRATCH               COUNT payloads at once, each a 50 MB video
//                                                       BASE/big.mp4?n=<i>
import Foundation
import MediaPlugin
import NSECore
import NSEMagic

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

/// Runs one payload per URL, all at once; every notification must end with one attachment.
/// The scratch directories are removed after the clock stops (curl's figure has no clean-up either).
func run(_ urls: [String]) async -> (time: Duration, accepted: Int) {
    let requests = urls.enumerated().map { index, url in
        let text = #"{"aps":{"alert":{"title":"Sale","body":"New"},"mutable-content":1},"image":"\#(url)"}"#
        return try! NotificationRequest(id: "n\(index)", json: Array(text.utf8))
    }
    let clock = ContinuousClock()
    let started = clock.now
    let results = await withTaskGroup(of: NotificationResult.self) { group in
        for request in requests {
            group.addTask { await pipeline.process(request) }
        }
        return await group.reduce(into: []) { $0.append($1) }
    }
    let elapsed = clock.now - started
    for result in results {
        if result.attachments.count != 1 { print("\(result.id): \(result.rejected.first?.detail ?? "no attachment")") }
        for attachment in result.attachments {
            try? FileManager.default.removeItem(atPath: (attachment.file as NSString).deletingLastPathComponent)
        }
    }
    return (elapsed, results.reduce(0) { $0 + $1.attachments.count })
}

func milliseconds(_ d: Duration) -> Int {
    Int(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
}

func peakRSS() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "?"
}

switch mode {
case "distinct":
    let (time, accepted) = await run((0..<count).map { "\(base)/img-\($0).jpg" })
    print("nse media distinct: \(count) payloads, \(accepted) attachments in \(milliseconds(time)) ms; peak RSS (VmHWM) \(peakRSS())")
case "campaign":
    let urls = Int(arguments[4])!
    let (time, accepted) = await run((0..<count).map { "\(base)/img-\($0 % urls).jpg" })
    print("nse media campaign: \(count) payloads over \(urls) URLs, \(accepted) attachments in \(milliseconds(time)) ms; peak RSS (VmHWM) \(peakRSS())")
case "rss":
    let (time, accepted) = await run((0..<count).map { "\(base)/big.mp4?n=\($0)" })
    print("nse media rss: \(count) concurrent 50 MB videos, \(accepted) attachments in \(milliseconds(time)) ms; peak RSS (VmHWM) \(peakRSS())")
default:
    print("unknown mode \(mode)")
    exit(2)
}
