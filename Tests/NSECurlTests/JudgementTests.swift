@testable import NSECurl
import Testing

/// One caller's verdict on a body, step by step, as the engine judges it while bytes arrive.
@Suite("Judgement: when classify is asked")
struct JudgementTests {
    let prefix = [UInt8](repeating: 0x41, count: 600)

    func request(classifyAbove: Int64, seen: Seen) -> DownloadRequest {
        DownloadRequest(
            url: "https://media.example/a.jpg", destination: "/nonexistent/a.jpg", deadline: .now + .seconds(5),
            maxBytes: 10_000_000, classify: { prefix in
                seen.add(prefix)
                return .reject("not wanted")
            }, classifyAbove: classifyAbove)
    }

    func judge(
        _ judgement: inout Judgement, _ request: DownloadRequest, prefix: [UInt8], complete: Bool = false,
        received: Int64, declared: Int64?
    ) -> DownloadError? {
        judgement.judge(request, prefix: prefix, complete: complete, received: received, declared: declared,
                        classifyLength: 512, maxPrefix: 64 * 1024)
    }

    @Test func aBodyDeclaredSmallIsJudgedAfterAllWhenMoreArrives() {
        let seen = Seen()
        let request = request(classifyAbove: 1000, seen: seen)
        var judgement = Judgement(request: request)
        #expect(judge(&judgement, request, prefix: prefix, received: 600, declared: 100) == nil)
        #expect(seen.calls.isEmpty)
        #expect(judge(&judgement, request, prefix: prefix, received: 1000, declared: 100) == nil)
        #expect(seen.calls.isEmpty)
        // Past what the skip trusted: the kept bytes are judged now.
        #expect(judge(&judgement, request, prefix: prefix, received: 1001, declared: 100)?.code == .rejectedContent)
        #expect(seen.calls.count == 1)
        #expect(seen.calls.first?.count == 512)
    }

    @Test func aCompleteBodyIsSizedByWhatArrivedNotByWhatWasDeclared() {
        let seen = Seen()
        let request = request(classifyAbove: 1000, seen: seen)
        var judgement = Judgement(request: request)
        #expect(judge(&judgement, request, prefix: prefix, complete: true, received: 5000, declared: 100)?.code == .rejectedContent)
        #expect(seen.calls.count == 1)
    }

    @Test func aShortBodyOfUnknownSizeThatEndsWithinTheThresholdIsNotJudged() {
        let seen = Seen()
        let request = request(classifyAbove: 1000, seen: seen)
        var judgement = Judgement(request: request)
        let short = Array(prefix.prefix(10))
        #expect(judge(&judgement, request, prefix: short, received: 10, declared: nil) == nil)
        #expect(judge(&judgement, request, prefix: short, complete: true, received: 10, declared: nil) == nil)
        #expect(seen.calls.isEmpty)
    }

    @Test func withoutAThresholdEveryBodyIsJudged() {
        let seen = Seen()
        let request = request(classifyAbove: 0, seen: seen)
        var judgement = Judgement(request: request)
        let short = Array(prefix.prefix(10))
        #expect(judge(&judgement, request, prefix: short, complete: true, received: 10, declared: 10)?.code == .rejectedContent)
        #expect(seen.calls == [short])
    }
}
