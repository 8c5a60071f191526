/// Base64url (RFC 4648 §5) with or without `=` padding, which JOSE and WebPush use; standard
/// base64 (`+`, `/`) is accepted too, unless a text mixes both alphabets.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let invalid: UInt32 = 0x8000_0000
    private static let urlOnly: UInt32 = 0x4000_0000
    private static let standardOnly: UInt32 = 0x2000_0000

    /// Four tables of 256 entries, one per position in a quantum of four characters: each
    /// holds the character's 6-bit value already shifted into place, so a quantum decodes with
    /// four loads and three ORs. High bits flag invalid characters and either alphabet's own
    /// characters, so one pass also tells whether both alphabets were mixed.
    private static let tables: [UInt32] = {
        var values = [UInt32](repeating: invalid, count: 256)
        for (index, byte) in alphabet.enumerated() { values[Int(byte)] = UInt32(index) }
        values[Int(UInt8(ascii: "-"))] |= urlOnly
        values[Int(UInt8(ascii: "_"))] |= urlOnly
        values[Int(UInt8(ascii: "+"))] = 62 | standardOnly
        values[Int(UInt8(ascii: "/"))] = 63 | standardOnly
        var tables: [UInt32] = []
        for shift in [18, 12, 6, 0] as [UInt32] {
            tables += values.map { $0 & invalid != 0 ? $0 : ($0 & 0xE000_0000) | (($0 & 0x3F) << shift) }
        }
        return tables
    }()

    /// Decodes `text`; `what` names the value in the error, e.g. "the enc body".
    static func decode(_ text: some StringProtocol, what: @autoclosure () -> String) throws(DecryptError) -> [UInt8] {
        try decode(bytes: Array(text.utf8)[...], what: what())
    }

    /// Decodes the UTF-8 bytes of a base64 text.
    static func decode(bytes: ArraySlice<UInt8>, what: @autoclosure () -> String) throws(DecryptError) -> [UInt8] {
        guard let result = bytes.withUnsafeBufferPointer({ decode($0) }) else { throw notBase64(what()) }
        return result
    }

    static func notBase64(_ what: String) -> DecryptError {
        .malformed("\(what) is not valid base64url; send it base64url-encoded (RFC 4648 §5), with or without padding")
    }

    /// Decodes bytes, or returns nil when they are not base64/base64url.
    static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let count = decodedCount(input) else { return nil }
        var valid = false
        let output = [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
            valid = decode(input, into: buffer)
            written = count
        }
        return valid ? output : nil
    }

    /// The number of bytes `input` decodes to, or nil when its length or padding is impossible.
    static func decodedCount(_ input: UnsafeBufferPointer<UInt8>) -> Int? {
        var end = input.count
        var padding = 0
        while end > 0, input[end - 1] == UInt8(ascii: "=") {
            end -= 1
            padding += 1
        }
        // Padding, when present, must complete the last quantum exactly.
        if padding > 0, padding > 2 || input.count % 4 != 0 { return nil }
        let rest = end % 4
        guard rest != 1 else { return nil }
        return end / 4 * 3 + (rest == 0 ? 0 : rest - 1)
    }

    /// Decodes `input` into `buffer`, which holds exactly `decodedCount(input)` bytes; false
    /// when a character is not base64 or both alphabets are mixed.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        var end = input.count
        while end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let rest = end % 4
        var flags: UInt32 = 0
        tables.withUnsafeBufferPointer { tables in
            var index = 0
            var out = 0
            // Two quanta at a time while a third follows: their six bytes go out as one
            // eight-byte store whose last two bytes the next quanta overwrite.
            if let base = buffer.baseAddress {
                while index + 12 <= end {
                    let n = tables[Int(input[index])] | tables[256 + Int(input[index + 1])]
                        | tables[512 + Int(input[index + 2])] | tables[768 + Int(input[index + 3])]
                    let m = tables[Int(input[index + 4])] | tables[256 + Int(input[index + 5])]
                        | tables[512 + Int(input[index + 6])] | tables[768 + Int(input[index + 7])]
                    flags |= n | m
                    let six = UInt64(n & 0xFF_FFFF) << 40 | UInt64(m & 0xFF_FFFF) << 16
                    UnsafeMutableRawPointer(base + out).storeBytes(of: six.bigEndian, as: UInt64.self)
                    index += 8
                    out += 6
                }
            }
            while index + 4 <= end {
                let n = tables[Int(input[index])] | tables[256 + Int(input[index + 1])]
                    | tables[512 + Int(input[index + 2])] | tables[768 + Int(input[index + 3])]
                flags |= n
                buffer[out] = UInt8(truncatingIfNeeded: n >> 16)
                buffer[out + 1] = UInt8(truncatingIfNeeded: n >> 8)
                buffer[out + 2] = UInt8(truncatingIfNeeded: n)
                index += 4
                out += 3
            }
            if rest > 1 {
                var n: UInt32 = 0
                for offset in 0..<rest { n |= tables[256 * offset + Int(input[index + offset])] }
                flags |= n
                buffer[out] = UInt8(truncatingIfNeeded: n >> 16)
                if rest == 3 { buffer[out + 1] = UInt8(truncatingIfNeeded: n >> 8) }
            }
        }
        guard flags & invalid == 0 else { return false }
        // Both alphabets in one text: `-` vs `+` cannot be told apart safely.
        return flags & (urlOnly | standardOnly) != (urlOnly | standardOnly)
    }

    /// Encodes without padding.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output = [UInt8]()
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
