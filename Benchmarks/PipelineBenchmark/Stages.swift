// `--stages`: what each stage costs a payload, one payload at a time on one thread, in CPU
// time of that thread (so time the thread spent descheduled does not count). For finding
// where the time goes; the side-by-side figure is the one the goal is judged on.

import Foundation
import NSECore

/// CPU seconds used by the calling thread.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Measures parse, lint, `Pipeline.process` (which lints again) and serialize on up to 50,000 lines.
nonisolated func printStageCosts(_ lines: [ArraySlice<UInt8>], pipeline: Pipeline) async {
    let count = min(lines.count, 50_000)
    func microseconds(_ seconds: Double) -> String { String(format: "%.2f µs", seconds * 1e6 / Double(count)) }

    var start = threadCPUSeconds()
    var requests: [NotificationRequest] = []
    requests.reserveCapacity(count)
    for index in 0..<count {
        guard let request = try? NotificationRequest(id: String(index), json: lines[index]) else { continue }
        requests.append(request)
    }
    let parse = threadCPUSeconds() - start

    start = threadCPUSeconds()
    var warnings = 0
    for request in requests {
        warnings += PayloadLinter.lint(request.payload, byteCount: request.originalText?.count ?? 0).count
    }
    let lint = threadCPUSeconds() - start

    // The same thread throughout: every step of this pipeline is synchronous, so `process`
    // never suspends.
    start = threadCPUSeconds()
    var results: [NotificationResult] = []
    results.reserveCapacity(count)
    for request in requests { results.append(await pipeline.process(request)) }
    let process = threadCPUSeconds() - start

    start = threadCPUSeconds()
    var bytes = 0
    for result in results { bytes += result.contentJSON().count }
    let serialize = threadCPUSeconds() - start

    print("a payload, one at a time: parse \(microseconds(parse)), lint \(microseconds(lint)), "
        + "process (lint included) \(microseconds(process)), serialize \(microseconds(serialize)) "
        + "(\(warnings) warnings, \(bytes) bytes out)")
}
