import ArgumentParser
import DecryptPlugin
import Foundation
import NSECore

extension NSE {
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Makes key sets for the decrypt step and prints the public parts senders need.",
            subcommands: [Create.self, Public.self]
        )
    }
}

extension NSE.Keys {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Writes a new JWK Set with private keys (mode 0600) and prints its public parts.",
            discussion: """
                Example: nse keys create --webpush phone-1 --oct server --out keys.jwks.json
                The private keys go only to the file; standard output gets the public parts \
                (for WebPush: p256dh and auth, what a subscription gives the sender).
                """
        )

        @Option(name: .long, help: "A WebPush subscription key (P-256 with an auth secret), by kid. Repeatable.")
        var webpush: [String] = []

        @Option(name: .long, help: "A P-256 key for ECDH-ES JWE, by kid. Repeatable.")
        var ec: [String] = []

        @Option(name: .long, help: "A 256-bit symmetric key for dir and A256KW JWE, by kid. Repeatable.")
        var oct: [String] = []

        @Option(name: .long, help: "The JWK Set file to write.")
        var out: String

        @Flag(help: "Replace the file if it exists.")
        var force = false

        mutating func run() async throws {
            var keys: [GeneratedKey] = []
            keys += webpush.map(KeySetGenerator.makeWebPushKey(kid:))
            keys += ec.map(KeySetGenerator.makeECKey(kid:))
            for kid in oct { keys.append(try KeySetGenerator.makeOctKey(kid: kid)) }
            guard !keys.isEmpty else { throw CLIError("name at least one key: --webpush KID, --ec KID or --oct KID") }
            let kids = keys.map(\.kid)
            if let repeated = kids.first(where: { kid in kids.filter { $0 == kid }.count > 1 }) {
                throw CLIError("the kid \"\(repeated)\" is used twice; each key needs its own")
            }
            if FileManager.default.fileExists(atPath: out) && !force {
                throw CLIError("\(out) exists; pass --force to replace it")
            }
            // Made with owner-only permissions before any key is written into it.
            let text = KeySetGenerator.keySetText(keys)
            guard FileManager.default.createFile(atPath: out, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CLIError("\(out): cannot create the file")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: out)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
            print(JSON.array(keys.map { .object($0.publicParts) }).text(style: .pretty))
        }
    }

    struct Public: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints the public parts of a JWK Set's keys.")

        @Argument(help: "A JWK Set file.")
        var file: String

        mutating func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("\(file): cannot read the file (does it exist?)")
            }
            do {
                print(try KeySetGenerator.publicParts(ofKeySet: String(decoding: data, as: UTF8.self)).text(style: .pretty))
            } catch {
                throw CLIError("\(file): \(error)")
            }
        }
    }
}
