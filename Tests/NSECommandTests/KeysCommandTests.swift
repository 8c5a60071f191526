import Foundation
import NSECore
import NSETesting
import Testing

@Suite("nse keys")
struct KeysCommandTests {
    @Test("create writes private keys to an owner-only file and prints only public parts")
    func create() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nse-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("keys.jwks.json").path

        let output = try NSEBinary.run(["keys", "create", "--webpush", "phone-1", "--oct", "server", "--out", file])
        #expect(output.status == 0, "\(output.stderr)")
        let printed = try JSON(parsing: output.stdout)
        #expect(printed.value(atPath: "0.kid") == "phone-1")
        #expect(printed.value(atPath: "0.p256dh")?.stringValue?.count == 87)  // 65 bytes, base64url
        #expect(printed.value(atPath: "0.auth")?.stringValue?.count == 22)  // 16 bytes, base64url
        #expect(!output.stdout.contains("\"d\"") && !output.stdout.contains("\"k\""))

        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let keySet = try JSON(parsing: try #require(FileManager.default.contents(atPath: file)))
        #expect(keySet.value(atPath: "keys.0.d") != nil)
        #expect(keySet.value(atPath: "keys.1.kty") == "oct")

        // The public parts read back from the file are the ones printed.
        let again = try NSEBinary.run(["keys", "public", file])
        #expect(try JSON(parsing: again.stdout) == printed)

        // An existing file is not replaced by accident.
        let refused = try NSEBinary.run(["keys", "create", "--oct", "x", "--out", file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists; pass --force"))
    }
}
