/// Base64url (RFC 4648 §5) with or without `=` padding, which JOSE and WebPush use; standard
/// base64 (`+`, `/`) is accepted too, unless a text mixes both alphabets.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 0–63 for a digit of either alphabet; 64 for `-`/`_` marks; 0xFF otherwise.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Decodes `text`; `what` names the value in the error, e.g. "the enc body".
    static func decode(_ text: some StringProtocol, what: String) throws(DecryptError) -> [UInt8] {
        var text = String(text)
        let result: [UInt8]? = text.withUTF8 { decode($0) }
        guard let result else {
            throw .malformed("\(what) is not valid base64url; send it base64url-encoded (RFC 4648 §5), with or without padding")
        }
        return result
    }

    /// Decodes bytes, or returns nil when they are not base64/base64url.
    static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = input.count
        var padding = 0
        while end > 0, input[end - 1] == UInt8(ascii: "=") {
            end -= 1
            padding += 1
        }
        // Padding, when present, must complete the last quantum exactly.
        if padding > 0, padding > 2 || input.count % 4 != 0 { return nil }
        guard end % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(end / 4 * 3 + 2)
        var sawURL = false
        var sawStandard = false
        var accumulator: UInt32 = 0
        var bits = 0
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            for index in 0..<end {
                let byte = input[index]
                let value = table[Int(byte)]
                guard value != 0xFF else { return nil }
                if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") { sawURL = true }
                if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") { sawStandard = true }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
            // Both alphabets in one text: `-` vs `+` cannot be told apart safely.
            if sawURL && sawStandard { return nil }
            return output
        }
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
