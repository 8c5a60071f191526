import Crypto
import Foundation
import NSECore
@testable import DecryptPlugin

/// The committed vectors made by Vectors/make-vectors.py.
struct PeerVectors {
    struct Vector {
        var name: String
        var scheme: String
        var payload: JSONObject
        var plaintext: [UInt8]
        var expected: JSONObject
    }

    let keys: KeySet
    let keysJSON: JSON
    let vectors: [Vector]

    static let shared: PeerVectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors/vectors.json")
        let root = try! JSON(parsing: Array(try! Data(contentsOf: url)))
        let keysJSON = root["keys"]!
        let vectors = root["vectors"]!.arrayValue!.map { entry in
            Vector(
                name: entry["name"]!.stringValue!, scheme: entry["scheme"]!.stringValue!,
                payload: entry["payload"]!.objectValue!,
                plaintext: try! Base64URL.decode(entry["plaintext"]!.stringValue!, what: "plaintext"),
                expected: entry["expected"]!.objectValue!)
        }
        return PeerVectors(keys: try! KeySet(json: keysJSON), keysJSON: keysJSON, vectors: vectors)
    }()

    func vector(named name: String) -> Vector {
        vectors.first { $0.name == name }!
    }
}

func b64(_ text: String) -> [UInt8] { try! Base64URL.decode(text, what: "test data") }

/// Encrypts like an RFC 8188 sender with a shared key, with full control over each record's
/// plaintext (delimiter and padding included), to build well-authenticated but malformed bodies.
func sealAES128GCM(records: [[UInt8]], ikm: [UInt8], recordSize: Int, keyID: [UInt8] = []) -> [UInt8] {
    let salt = (0..<16).map { UInt8($0 * 7 & 0xFF) }
    let (key, nonce) = ContentEncoding.aes128gcmKeys(ikm: ikm, salt: salt[...])
    var body = salt + [UInt8(recordSize >> 24), UInt8(recordSize >> 16 & 0xFF), UInt8(recordSize >> 8 & 0xFF), UInt8(recordSize & 0xFF)]
    body += [UInt8(keyID.count)] + keyID
    for (sequence, record) in records.enumerated() {
        let box = try! AES.GCM.seal(record, using: key, nonce: AES.GCM.Nonce(data: ContentEncoding.nonce(nonce, sequence)))
        body += Array(box.ciphertext) + Array(box.tag)
    }
    return body
}

/// Encrypts a WebPush aes128gcm message to a subscription (`p256dh`, `auth`), as an application server does.
func webPushEncrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8]) -> [UInt8] {
    let sender = P256.KeyAgreement.PrivateKey()
    let senderPoint = Array(sender.publicKey.x963Representation)
    let receiver = try! P256.KeyAgreement.PublicKey(x963Representation: p256dh)
    let secret = try! sender.sharedSecretFromKeyAgreement(with: receiver).withUnsafeBytes { Array($0) }
    let ikm = Primitives.hkdf(salt: auth, ikm: secret, info: WebPush.keyInfoLabel + p256dh + senderPoint, count: 32)
    let salt = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    let (key, nonce) = ContentEncoding.aes128gcmKeys(ikm: ikm, salt: salt[...])
    let box = try! AES.GCM.seal(plaintext + [0x02], using: key, nonce: AES.GCM.Nonce(data: nonce))
    return salt + [0, 0, 0x10, 0, 65] + senderPoint + Array(box.ciphertext) + Array(box.tag)
}

/// Runs `body` and returns the DecryptError it throws, or nil.
func decryptError(_ body: () throws -> Void) -> DecryptError? {
    do {
        try body()
        return nil
    } catch let error as DecryptError {
        return error
    } catch {
        return nil
    }
}
