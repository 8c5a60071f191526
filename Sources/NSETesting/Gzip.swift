/// Builds real gzip streams of zeros, tiny on the wire and large once decoded: a
/// "decompression bomb" for tests. Written by hand (one fixed-Huffman deflate block of
/// 258-byte back-references) so no compression library is needed.
package enum GzipBomb {
    /// A gzip stream that decodes to `size` zero bytes (size >= 1).
    package static func zeros(_ size: Int) -> [UInt8] {
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE = fixed Huffman
        bits.code(0x30, length: 8)  // literal 0
        var remaining = size - 1
        while remaining >= 258 {
            bits.code(0xC5, length: 8)  // length code 285: 258 bytes
            bits.code(0, length: 5)  // distance code 0: distance 1
            remaining -= 258
        }
        for _ in 0..<remaining { bits.code(0x30, length: 8) }
        bits.code(0, length: 7)  // end of block
        out += bits.finish()
        out += littleEndian(crc32OfZeros(size)) + littleEndian(UInt32(truncatingIfNeeded: size))
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func crc32OfZeros(_ count: Int) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<count { crc = table[Int(crc & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var used = 0

        /// Writes a value least significant bit first (header fields, extra bits).
        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { push(value >> i & 1) }
        }

        /// Writes a Huffman code most significant bit first, as deflate requires.
        mutating func code(_ value: UInt32, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { push(value >> i & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << used
            used += 1
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current)) }
            return bytes
        }
    }
}
