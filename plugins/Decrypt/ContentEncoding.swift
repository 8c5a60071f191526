import Crypto

/// Encrypted content-coding records: RFC 8188 `aes128gcm`, and the older `aesgcm` draft
/// (draft-ietf-httpbis-encryption-encoding-03) that WebPush relays still send.
enum ContentEncoding {
    /// The header that starts an `aes128gcm` body: salt (16) | rs (4) | idlen (1) | keyid.
    struct Header {
        var salt: ArraySlice<UInt8>
        var recordSize: Int
        var keyID: ArraySlice<UInt8>
        var records: ArraySlice<UInt8>
    }

    static func parseHeader(_ body: [UInt8]) throws(DecryptError) -> Header {
        guard body.count >= 21 else {
            throw .truncated("the aes128gcm body is shorter than its 21-byte header; the message was cut short")
        }
        let recordSize = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(body[20])
        guard body.count >= 21 + idLength else {
            throw .truncated("the aes128gcm header announces a \(idLength)-byte key id but the body ends first")
        }
        guard recordSize >= 18 else {
            throw .malformed("the aes128gcm record size is \(recordSize); RFC 8188 requires at least 18")
        }
        return Header(
            salt: body[0..<16], recordSize: recordSize, keyID: body[21..<(21 + idLength)],
            records: body[(21 + idLength)...])
    }

    static let aes128gcmKeyInfo = Array("Content-Encoding: aes128gcm\0".utf8)
    static let aes128gcmNonceInfo = Array("Content-Encoding: nonce\0".utf8)

    /// Content key and base nonce for `aes128gcm` (RFC 8188 §2.2, §2.3).
    static func aes128gcmKeys(ikm: [UInt8], salt: ArraySlice<UInt8>) -> (SymmetricKey, [UInt8]) {
        let prk = Primitives.hkdfExtract(salt: Array(salt), ikm: ikm)
        let key = Primitives.hkdfExpand(prk: prk, info: aes128gcmKeyInfo, count: 16)
        let nonce = Primitives.hkdfExpand(prk: prk, info: aes128gcmNonceInfo, count: 12)
        return (SymmetricKey(data: key), nonce)
    }

    /// The nonce of record `sequence`: the base nonce XOR the sequence number (big-endian, 96 bits).
    static func nonce(_ base: [UInt8], _ sequence: Int) -> [UInt8] {
        var nonce = base
        var value = UInt64(sequence)
        for index in stride(from: 11, through: 4, by: -1) {
            nonce[index] ^= UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
        return nonce
    }

    /// Decrypts `aes128gcm` records: each is `rs` bytes but the last, and ends with a delimiter
    /// (0x01, or 0x02 for the last) followed by zero padding.
    static func openAES128GCM(_ records: ArraySlice<UInt8>, recordSize: Int, key: SymmetricKey, nonce base: [UInt8]) throws(DecryptError) -> [UInt8] {
        guard !records.isEmpty else {
            throw .truncated("the aes128gcm body has a header but no records; the message was cut short")
        }
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(records.count)
        var start = records.startIndex
        var sequence = 0
        while start < records.endIndex {
            let end = records.endIndex - start > recordSize ? start + recordSize : records.endIndex
            let isLast = end == records.endIndex
            guard end - start >= 17 else {
                throw .truncated("aes128gcm record \(sequence) is \(end - start) bytes, too short for a delimiter and a tag; the message was cut short")
            }
            let record = try Primitives.open(
                records[start..<end], key: key, nonce: nonce(base, sequence), what: "aes128gcm record \(sequence)")
            // The delimiter is the last non-zero byte; zeros after it are padding.
            guard let delimiterIndex = record.lastIndex(where: { $0 != 0 }) else {
                throw .badPadding("aes128gcm record \(sequence) is all padding, without a delimiter")
            }
            switch (record[delimiterIndex], isLast) {
            case (0x02, true), (0x01, false):
                plaintext.append(contentsOf: record[..<delimiterIndex])
            case (0x01, true):
                throw .truncated("the last aes128gcm record says more records follow; the message was cut short")
            case (0x02, false):
                throw .badPadding("aes128gcm record \(sequence) is marked last but more records follow")
            case (let other, _):
                throw .badPadding("aes128gcm record \(sequence) ends with the delimiter 0x\(String(other, radix: 16)); RFC 8188 allows 0x01 or 0x02")
            }
            start = end
            sequence += 1
        }
        return plaintext
    }

    /// Content key and nonce for WebPush `aesgcm` (draft-ietf-webpush-encryption-04): the
    /// auth secret is mixed in first, then the context names both public keys.
    static func aesgcmKeys(
        sharedSecret: [UInt8], auth: [UInt8], receiverPoint: [UInt8], senderPoint: [UInt8], salt: [UInt8]
    ) -> (SymmetricKey, [UInt8]) {
        let ikm = Primitives.hkdf(salt: auth, ikm: sharedSecret, info: Array("Content-Encoding: auth\0".utf8), count: 32)
        var context = Array("P-256\0".utf8)
        for point in [receiverPoint, senderPoint] {
            context += [UInt8(point.count >> 8), UInt8(point.count & 0xFF)] + point
        }
        let prk = Primitives.hkdfExtract(salt: salt, ikm: ikm)
        let key = Primitives.hkdfExpand(prk: prk, info: Array("Content-Encoding: aesgcm\0".utf8) + context, count: 16)
        let nonce = Primitives.hkdfExpand(prk: prk, info: Array("Content-Encoding: nonce\0".utf8) + context, count: 12)
        return (SymmetricKey(data: key), nonce)
    }

    /// Decrypts `aesgcm` records: each holds `rs` bytes of plaintext plus a 16-byte tag, and
    /// starts with a 2-byte padding length followed by that many zero bytes. The last record is
    /// always shorter than a full one, so a body of whole records has lost its end.
    static func openAESGCM(_ body: [UInt8], recordSize: Int, key: SymmetricKey, nonce base: [UInt8]) throws(DecryptError) -> [UInt8] {
        // Bounded above too: `rs` comes from the sender, and `rs + 16` must not overflow.
        guard recordSize > 2, recordSize <= 1 << 24 else {
            throw .malformed("the aesgcm record size is \(recordSize); it must be more than 2 and at most 16777216")
        }
        let chunk = recordSize + 16
        guard body.count % chunk != 0 else {
            throw .truncated("the aesgcm body ends on a record boundary (or is empty), so its last record is missing")
        }
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(body.count)
        var start = 0
        var sequence = 0
        while start < body.count {
            let end = min(start + chunk, body.count)
            guard end - start >= 18 else {
                throw .truncated("aesgcm record \(sequence) is \(end - start) bytes, too short for its padding length and tag")
            }
            let record = try Primitives.open(body[start..<end], key: key, nonce: nonce(base, sequence), what: "aesgcm record \(sequence)")
            let padding = Int(record[0]) << 8 | Int(record[1])
            guard 2 + padding <= record.count, record[2..<(2 + padding)].allSatisfy({ $0 == 0 }) else {
                throw .badPadding("aesgcm record \(sequence) has a padding length past its end, or padding that is not zeros")
            }
            plaintext.append(contentsOf: record[(2 + padding)...])
            start = end
            sequence += 1
        }
        return plaintext
    }
}
