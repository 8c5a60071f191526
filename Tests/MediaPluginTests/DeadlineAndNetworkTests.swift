import Foundation
import NSECore
import NSETesting
import Testing

@Suite("Deadline and network policy")
struct DeadlineAndNetworkTests {
    @Test("a server that never answers gives the original content at a 2-second deadline")
    func silentServerGivesFallbackAtDeadline() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        server.route("/silent.jpg", .hang)
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("deadline: 2s\nnetwork: { allow-private: true }\nsteps: [media]\n")
        let request = try notification(#""image":\#(quoted(server.url("/silent.jpg")))"#)

        let clock = ContinuousClock()
        let start = clock.now
        let result = await pipeline.process(request)
        let elapsed = clock.now - start

        print("silent server, 2 s deadline: decided after \(result.elapsed), returned after \(elapsed)")
        #expect(result.outcome == .fallback)
        #expect(result.reason == "deadline")
        #expect(result.content == request.content)
        #expect(result.attachments.isEmpty)
        #expect(result.steps.first?.status == .timedOut)
        #expect(elapsed >= .milliseconds(1990))
        // The answer is decided at the deadline (the target is 50 ms after it, the bound allows
        // for a loaded machine); handing it back to this test can take longer when the tests
        // beside it keep every thread busy, so that is bounded only loosely.
        #expect(result.elapsed >= .milliseconds(1990) && result.elapsed < .milliseconds(2200))
        #expect(elapsed < .seconds(10))
        // Once at most (never retried); on a machine busy with other tests the request may not
        // even have gone out before the deadline.
        #expect(server.requestCount("/silent.jpg") <= 1)
        expectOnlyAttachments(result, under: root)
    }

    @Test("without network.allow-private, 127.0.0.1 is refused and the rejection names the setting")
    func loopbackRefusedByDefault() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("steps: [media]\n")
        let request = try notification(#""image":\#(quoted(server.url("/picture.jpg")))"#)

        let result = await pipeline.process(request)

        #expect(result.outcome == .unchanged)
        #expect(result.content.payload == request.payload)
        let rejection = try #require(result.rejected.first)
        #expect(rejection.reason == .downloadFailed)
        #expect(rejection.detail.contains("127.0.0.1"), "\(rejection.detail)")
        #expect(rejection.detail.contains("allow-private: true"), "\(rejection.detail)")
        #expect(server.requestCount("/picture.jpg") == 0, "nothing reached the server")
        expectOnlyAttachments(result, under: root)
    }

    @Test("the same URL asked for by many notifications at once is fetched once")
    func campaignSharesOneTransfer() async throws {
        let server = try await mediaServer()
        defer { server.stop() }
        let root = try ScratchRoot()
        let pipeline = try root.pipeline("network: { allow-private: true }\nsteps: [media]\n")
        let url = quoted(server.url("/picture.png"))
        let requests = try (0..<50).map { try notification(#""image":\#(url)"#, id: "n\($0)") }

        let results = await withTaskGroup(of: NotificationResult.self) { group in
            for request in requests {
                group.addTask { await pipeline.process(request) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 50)
        #expect(results.allSatisfy { $0.outcome == .modified && $0.attachments.first?.uti == "public.png" })
        // Joined transfers and the recent-downloads cache serve the rest.
        #expect(server.requestCount("/picture.png") == 1)
    }
}
