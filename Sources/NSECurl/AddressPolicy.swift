/// Decides whether an address may be connected to when private addresses are not allowed.
///
/// Judged on the socket address libcurl is about to connect to, so a public host name that
/// resolves to a private address is refused as well.
package enum AddressPolicy {
    /// Why `bytes` (4 bytes of IPv4 or 16 of IPv6, network order) is not a public address, or
    /// nil when it is one.
    package static func restriction(of bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4: return restriction(ipv4: bytes)
        case 16: return restriction(ipv6: bytes)
        default: return "not an IP address"
        }
    }

    static func restriction(ipv4 b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (0, _): return "unspecified"
        case (10, _): return "private"
        case (100, 64...127): return "shared address space (carrier-grade NAT)"
        case (127, _): return "loopback"
        case (169, 254): return "link-local"
        case (172, 16...31): return "private"
        case (192, 168): return "private"
        case (192, 0) where b[2] == 0: return "IETF protocol assignments"
        case (198, 18...19): return "benchmarking"
        case (192, 0) where b[2] == 2, (198, 51) where b[2] == 100, (203, 0) where b[2] == 113:
            return "documentation (TEST-NET)"
        case (192, 88) where b[2] == 99: return "6to4 relay anycast"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        default: return nil
        }
    }

    static func restriction(ipv6 b: [UInt8]) -> String? {
        let head = b[0..<10]
        if b.allSatisfy({ $0 == 0 }) { return "unspecified" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback" }
        // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address that
        // is what the packets really reach.
        if head.allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff {
            return restriction(ipv4: Array(b[12..<16])).map { "IPv4-mapped \($0)" }
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && b[4..<12].allSatisfy({ $0 == 0 }) {
            return restriction(ipv4: Array(b[12..<16])).map { "NAT64 \($0)" }
        }
        // IPv4-compatible (::a.b.c.d, deprecated), 6to4 (2002:a.b.c.d::/16) and the local-use
        // NAT64 prefix (64:ff9b:1::/48) embed an IPv4 address too.
        if b[0..<12].allSatisfy({ $0 == 0 }) {
            return restriction(ipv4: Array(b[12..<16])).map { "IPv4-compatible \($0)" } ?? "IPv4-compatible (deprecated)"
        }
        if b[0] == 0x20 && b[1] == 0x02 {
            return restriction(ipv4: Array(b[2..<6])).map { "6to4 \($0)" }
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && b[4] == 0x00 && b[5] == 0x01 {
            return "local-use NAT64"
        }
        if b[0] & 0xfe == 0xfc { return "unique local (private)" }
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return "link-local" }
        if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return "site-local (deprecated private)" }
        if b[0] == 0xff { return "multicast" }
        return nil
    }

    /// The usual text form of an address: dotted quad, or RFC 5952 IPv6.
    package static func format(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        guard bytes.count == 16 else { return "?" }
        let groups = stride(from: 0, to: 16, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        // Compress the longest run of two or more zero groups.
        var best = (start: -1, length: 0), current = (start: -1, length: 0)
        for (i, g) in groups.enumerated() {
            if g == 0 {
                current = current.start < 0 ? (i, 1) : (current.start, current.length + 1)
                if current.length > best.length { best = current }
            } else {
                current = (-1, 0)
            }
        }
        func hex(_ range: ArraySlice<Int>) -> String { range.map { String($0, radix: 16) }.joined(separator: ":") }
        guard best.length >= 2 else { return hex(groups[...]) }
        return hex(groups[..<best.start]) + "::" + hex(groups[(best.start + best.length)...])
    }
}
