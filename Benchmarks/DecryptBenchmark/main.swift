// Decryptions per CPU second for a 3 KB WebPush aes128gcm body and a 3 KB JWE dir token, next to
// the bare P-256 key agreement every WebPush decryption must do (`seconds` of CPU time per
// measurement, in five interleaved windows, best window kept). Run by Benchmarks/decrypt-bench.sh,
// which also times the same decryptions in Python.
//
//     DecryptBenchmark VECTORS.json [seconds] [agreement|webpush|jwe]   (the last to profile one)
import Crypto
import DecryptPlugin
import Foundation
import NSECore

/// Keeps a value alive so the work that made it is not optimized away.
@inline(never) func blackHole(_ value: Int) { _ = value }

/// CPU time of this thread in seconds: unlike the wall clock, it does not count the time other
/// processes hold the CPU, so figures from a busy machine stay comparable.
func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Calls `body` for about `seconds` of CPU time and returns calls per CPU second. `body`
/// returns a number derived from its work so the optimizer cannot drop it.
func rate(seconds: Double, _ body: () throws -> Int) rethrows -> Double {
    var sink = try body()
    defer { blackHole(sink) }
    let start = threadCPUTime()
    var count = 0
    while true {
        for _ in 0..<50 { sink &+= try body() }
        count += 50
        let elapsed = threadCPUTime() - start
        if elapsed >= seconds { return Double(count) / elapsed }
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: DecryptBenchmark VECTORS.json [seconds]\n".utf8))
    exit(2)
}
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 2 : 2
let root = try JSON(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: arguments[1]))))
let keys = try KeySet(json: root["keys"]!)
let decryptor = Decryptor(keys: keys)
let webPush = root["webpush"]!
let jwe = root["jwe"]!
let expected = root["plaintextBytes"]!.numberValue!.intValue!
let checks = (try decryptor.decrypt(webPush).count, try decryptor.decrypt(jwe).count)
precondition(checks == (expected, expected), "the vectors do not decrypt to their plaintext size")

// The floor: one P-256 key agreement with an already parsed public key.
let peer = P256.KeyAgreement.PrivateKey().publicKey
let privateKey = try P256.KeyAgreement.PrivateKey(
    rawRepresentation: Array(Data(base64Encoded: root["keys"]!["keys"]!.arrayValue![0]["d"]!.stringValue!
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "=")!))

let only = arguments.count > 3 ? arguments[3] : nil
let measurements: [(String, () throws -> Int)] = [
    ("agreement", { try privateKey.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Int($0[0]) } }),
    ("webpush", { try decryptor.decrypt(webPush).count }),
    ("jwe", { try decryptor.decrypt(jwe).count }),
].filter { only == nil || $0.0 == only }
// Short windows, interleaved, best of each: on a shared machine the quietest window is the
// truest, and interleaving keeps a busy spell from favouring one measurement.
let rounds = 5
var best: [String: Double] = [:]
for _ in 0..<rounds {
    for (name, body) in measurements {
        best[name] = max(best[name] ?? 0, try rate(seconds: seconds / Double(rounds), body))
    }
}
let agreement = best["agreement"] ?? 0
let webPushRate = best["webpush"] ?? 0
let jweRate = best["jwe"] ?? 0

// The whole step, payload in and content out, for reference.
let payload: JSONObject = ["aps": ["alert": ["title": "New message", "body": "(encrypted)"], "mutable-content": 1], "enc": webPush]
/// Runs the whole modifier for about `seconds` of CPU time; returns steps per CPU second.
func stepRate(seconds: Double) async throws -> Double {
    let modifier = DecryptModifier(keys: keys)
    let context = ModifierContext.standalone(request: NotificationRequest(id: "bench", payload: payload))
    var steps = 0
    let start = threadCPUTime()
    while threadCPUTime() - start < seconds {
        for _ in 0..<50 {
            var content = NotificationContent(payload: payload)
            try await modifier.modify(&content, context: context)
            precondition(content.payload["enc"] == nil)
        }
        steps += 50
    }
    return Double(steps) / (threadCPUTime() - start)
}
let stepsPerSecond = only == nil ? try await stepRate(seconds: seconds) : 0

print(#"{"agreement": \#(agreement), "webpush": \#(webPushRate), "jwe": \#(jweRate), "webpushStep": \#(stepsPerSecond)}"#)
