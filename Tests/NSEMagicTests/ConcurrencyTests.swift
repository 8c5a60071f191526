import Foundation
import NSECore
import NSEMagic
import NSETesting
import Testing

@Suite struct ConcurrencyTests {
    @Test func manyTasksAtOnceGetTheSameAnswers() async throws {
        // A small pool, so that tasks really wait for handles and reuse them.
        let sniffer = try MagicSniffer(poolSize: 3)
        let fixtures = FixtureCase.all
        var expected: [String: SniffResult] = [:]
        var contents: [String: [UInt8]] = [:]
        for fixture in fixtures {
            expected[fixture.file] = try sniffer.sniff(file: fixture.path)
            contents[fixture.file] = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        }
        let bytes = contents

        let rounds = 40
        let answers = try await withThrowingTaskGroup(of: (String, SniffResult).self) { group in
            for round in 0..<rounds {
                for fixture in fixtures {
                    group.addTask {
                        // Alternate between files and buffers, so both paths share the pool.
                        if round.isMultiple(of: 2) {
                            return (fixture.file, try sniffer.sniff(file: fixture.path))
                        }
                        return (fixture.file, try sniffer.sniff(bytes: bytes[fixture.file]!))
                    }
                }
            }
            var all: [(String, SniffResult)] = []
            for try await answer in group { all.append(answer) }
            return all
        }

        #expect(answers.count == rounds * fixtures.count)
        for (file, result) in answers {
            #expect(result == expected[file], "\(file) classified differently under concurrency")
        }
        #expect(sniffer.loadedHandleCount <= 3)
    }

    @Test func tasksOutnumberingThePoolAllFinish() async throws {
        let sniffer = try MagicSniffer(poolSize: 1)
        let png = Fixtures.media("picture.png")
        let utis = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<64 {
                group.addTask { try sniffer.sniff(file: png).uti }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(utis == Array(repeating: "public.png", count: 64))
        #expect(sniffer.loadedHandleCount == 1)
    }

    @Test func threadsShareOnePoolSafely() throws {
        // Plain threads, not tasks: callers outside Swift concurrency block for a handle.
        let sniffer = try MagicSniffer(poolSize: 2)
        let fixtures = FixtureCase.all
        let failures = Mutexed(0)
        DispatchQueue.concurrentPerform(iterations: 8 * fixtures.count) { index in
            let fixture = fixtures[index % fixtures.count]
            if (try? sniffer.sniff(file: fixture.path))?.uti != fixture.uti { failures.increment() }
        }
        #expect(failures.value == 0)
        #expect(sniffer.loadedHandleCount <= 2)
    }
}

/// A counter safe to bump from many threads.
final class Mutexed: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ count: Int) { self.count = count }
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
