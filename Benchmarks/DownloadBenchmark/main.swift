// Prints figures for the download engine against a local HTTP server; not a test.
//
//   DownloadBenchmark distinct BASE COUNT OUTDIR          fetch BASE/img-<i>.jpg, i < COUNT
//   DownloadBenchmark campaign BASE REQUESTS URLS OUTDIR  REQUESTS downloads sharing URLS URLs,
//                                                         then the same with every URL distinct
//   DownloadBenchmark rss BASE COUNT OUTDIR               COUNT concurrent downloads of BASE/big.bin
import NSECurl
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    print("usage: DownloadBenchmark distinct|campaign|rss BASE N [URLS] OUTDIR")
    exit(2)
}
let mode = arguments[1], base = arguments[2], count = Int(arguments[3])!
let outDirectory = arguments.last!

/// Downloads every URL at once; returns the wall time. Files are removed as they land, so
/// disk use stays low; the time includes writing them.
func run(_ urls: [String], cache: Downloader.CacheConfiguration = .init(), maxBytes: Int64 = 100_000_000) async throws -> Duration {
    let downloader = try Downloader(configuration: .init(allowPrivateAddresses: true, cache: cache))
    defer { downloader.shutdown() }
    let clock = ContinuousClock()
    let started = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (i, url) in urls.enumerated() {
            let request = DownloadRequest(
                url: url, destination: "\(outDirectory)/\(mode)-\(i)", deadline: .now + .seconds(300), maxBytes: maxBytes)
            group.addTask {
                let result = try await downloader.download(request)
                unlink(result.file)
            }
        }
        try await group.waitForAll()
    }
    return clock.now - started
}

func seconds(_ d: Duration) -> String {
    let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    return String(Int(s * 1000)) + " ms"
}

func ratio(_ a: Duration, _ b: Duration) -> String {
    func value(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    return String(Double(Int(value(a) / max(1e-9, value(b)) * 10)) / 10) + "x"
}

func peakRSS() -> String {
    guard let file = fopen("/proc/self/status", "r") else { return "?" }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") { return text.dropFirst(6).trimmingPrefix(while: { $0 == " " || $0 == "\t" }).dropLast().description }
    }
    return "?"
}

switch mode {
case "distinct":
    let time = try await run((0..<count).map { "\(base)/img-\($0).jpg" })
    print("nse distinct: \(count) files in \(seconds(time))")
case "campaign":
    let urls = Int(arguments[4])!
    let shared = try await run((0..<count).map { "\(base)/img-\($0 % urls).jpg" })
    let each = try await run((0..<count).map { "\(base)/img-\($0 % urls).jpg?n=\($0)" }, cache: .disabled)
    print("nse campaign: \(count) requests over \(urls) URLs in \(seconds(shared)); fetching each: \(seconds(each)); ratio \(ratio(each, shared))")
case "rss":
    let time = try await run((0..<count).map { "\(base)/big.bin?n=\($0)" })
    print("nse rss: \(count) concurrent downloads of big.bin in \(seconds(time)); peak RSS (VmHWM) \(peakRSS())")
default:
    print("unknown mode \(mode)")
    exit(2)
}
