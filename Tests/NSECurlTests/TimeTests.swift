import NSECurl
import NSETesting
import Testing

@Suite("Deadline, stalls and cancellation")
struct TimeTests {
    @Test func deadlineIsHonouredAgainstASilentServer() async throws {
        let f = try await Fixture.make(.init(allowPrivateAddresses: true, stallTimeout: .seconds(60)))
        defer { f.finish() }
        f.server.route("/silent", .hang)
        let clock = ContinuousClock()
        let started = clock.now
        let error = await f.failure(f.request("/silent", within: .seconds(1)))
        let elapsed = clock.now - started
        #expect(error?.code == .timedOut)
        #expect(elapsed >= .milliseconds(900))
        // Deadline plus a margin for a machine whose threads the tests beside this one keep busy.
        #expect(elapsed < .seconds(8))
        #expect(!fileExists(f.scratch.file("out")))
        #expect(ScratchDirectory.list(f.downloader.workDirectory).isEmpty)
    }

    @Test func silenceBeyondTheStallTimeoutFails() async throws {
        let f = try await Fixture.make(.init(allowPrivateAddresses: true, stallTimeout: .seconds(1)))
        defer { f.finish() }
        f.server.route("/silent", .hang)
        let clock = ContinuousClock()
        let started = clock.now
        let error = await f.failure(f.request("/silent", within: .seconds(30)))
        #expect(error?.code == .stalled)
        #expect(clock.now - started < .seconds(10))
    }

    @Test func cancellationAbortsAndDeletesThePartialFile() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/slow", .drip(total: 10_000_000, chunk: 1024, every: .milliseconds(20), contentType: "video/mp4"))
        // The classify callback tells the test that bytes are on disk.
        let (arrived, signal) = AsyncStream<Void>.makeStream()
        let request = f.request("/slow", maxBytes: 20_000_000) { _ in
            signal.yield()
            return .needMoreBytes
        }
        let task = Task { await f.failure(request) }
        var iterator = arrived.makeAsyncIterator()
        await iterator.next()
        #expect(ScratchDirectory.list(f.downloader.workDirectory).count == 1)  // the partial file

        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        let error = await task.value
        #expect(error?.code == .cancelled)
        // The whole body would take over three minutes; generous for a loaded machine.
        #expect(clock.now - cancelled < .seconds(3))
        #expect(!fileExists(f.scratch.file("out")))
        #expect(ScratchDirectory.list(f.downloader.workDirectory).isEmpty)
        #expect(f.server.bodyBytesSent("/slow") < 10_000_000)
    }

    @Test func alreadyCancelledTaskDoesNotFetch() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/a", .bytes([1, 2, 3], contentType: "image/png"))
        let request = f.request("/a")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await f.failure(request)
        }
        #expect(await task.value?.code == .cancelled)
        #expect(f.server.requestCount("/a") == 0)
    }

    @Test func deadlineAlreadyPassedFailsAtOnce() async throws {
        let f = try await Fixture.make()
        defer { f.finish() }
        f.server.route("/a", .bytes([1, 2, 3], contentType: "image/png"))
        #expect(await f.failure(f.request("/a", within: .zero))?.code == .timedOut)
        #expect(f.server.requestCount("/a") == 0)
    }
}
