@testable import NSECurl
import NSETesting
import Testing

@Suite("Address guard")
struct AddressGuardTests {
    @Test func loopbackIsRefusedByDefault() async throws {
        let f = try await Fixture.make(.init())
        defer { f.finish() }
        f.server.route("/a.png", .bytes([1, 2, 3], contentType: "image/png"))
        let error = await f.failure(f.request("/a.png"))
        #expect(error?.code == .privateAddress)
        #expect(error?.message.contains("127.0.0.1") == true)
        #expect(error?.message.contains("allow-private") == true)
        #expect(f.server.requestCount("/a.png") == 0)
        #expect(!fileExists(f.scratch.file("out")))
    }

    @Test(arguments: [
        ([10, 1, 2, 3], "private"), ([172, 16, 0, 1], "private"), ([172, 31, 255, 255], "private"),
        ([192, 168, 1, 1], "private"), ([100, 64, 0, 1], "shared address space (carrier-grade NAT)"),
        ([127, 0, 0, 1], "loopback"), ([169, 254, 169, 254], "link-local"), ([224, 0, 0, 1], "multicast"),
        ([0, 0, 0, 0], "unspecified"), ([255, 255, 255, 255], "reserved"),
        ([192, 0, 2, 1], "documentation (TEST-NET)"), ([198, 51, 100, 7], "documentation (TEST-NET)"),
        ([203, 0, 113, 9], "documentation (TEST-NET)"), ([192, 88, 99, 1], "6to4 relay anycast"),
    ] as [([UInt8], String)])
    func ipv4Restrictions(address: [UInt8], reason: String) {
        #expect(AddressPolicy.restriction(of: address) == reason)
    }

    @Test(arguments: [[8, 8, 8, 8], [172, 32, 0, 1], [100, 128, 0, 1], [1, 1, 1, 1]] as [[UInt8]])
    func publicIPv4IsAllowed(address: [UInt8]) {
        #expect(AddressPolicy.restriction(of: address) == nil)
    }

    static func v6(_ groups: [UInt16]) -> [UInt8] { groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } }

    @Test func ipv6Restrictions() {
        #expect(AddressPolicy.restriction(of: Self.v6([0, 0, 0, 0, 0, 0, 0, 1])) == "loopback")
        #expect(AddressPolicy.restriction(of: Self.v6([0, 0, 0, 0, 0, 0, 0, 0])) == "unspecified")
        #expect(AddressPolicy.restriction(of: Self.v6([0xfe80, 0, 0, 0, 0, 0, 0, 1])) == "link-local")
        #expect(AddressPolicy.restriction(of: Self.v6([0xfd12, 0x3456, 0, 0, 0, 0, 0, 1])) == "unique local (private)")
        #expect(AddressPolicy.restriction(of: Self.v6([0xff02, 0, 0, 0, 0, 0, 0, 1])) == "multicast")
        #expect(AddressPolicy.restriction(of: Self.v6([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1])) == "IPv4-mapped loopback")
        #expect(AddressPolicy.restriction(of: Self.v6([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1])) == "IPv4-mapped private")
        #expect(AddressPolicy.restriction(of: Self.v6([0x64, 0xff9b, 0, 0, 0, 0, 0xc0a8, 1])) == "NAT64 private")
        #expect(AddressPolicy.restriction(of: Self.v6([0, 0, 0, 0, 0, 0, 0x7f00, 1])) == "IPv4-compatible loopback")
        #expect(AddressPolicy.restriction(of: Self.v6([0x2002, 0x0a00, 0x0001, 0, 0, 0, 0, 1])) == "6to4 private")
        #expect(AddressPolicy.restriction(of: Self.v6([0x2002, 0x0808, 0x0808, 0, 0, 0, 0, 1])) == nil)
        #expect(AddressPolicy.restriction(of: Self.v6([0x64, 0xff9b, 1, 0, 0, 0, 0x0808, 0x0808])) == "local-use NAT64")
        #expect(AddressPolicy.restriction(of: Self.v6([0, 0, 0, 0, 0, 0xffff, 0x0808, 0x0808])) == nil)
        #expect(AddressPolicy.restriction(of: Self.v6([0x2001, 0x4860, 0x4860, 0, 0, 0, 0, 0x8888])) == nil)
    }

    @Test func addressesAreFormatted() {
        #expect(AddressPolicy.format([127, 0, 0, 1]) == "127.0.0.1")
        #expect(AddressPolicy.format(Self.v6([0, 0, 0, 0, 0, 0, 0, 1])) == "::1")
        #expect(AddressPolicy.format(Self.v6([0xfe80, 0, 0, 0, 0, 0, 0, 0x1a])) == "fe80::1a")
        #expect(AddressPolicy.format(Self.v6([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1])) == "2001:db8:0:1::1")
    }
}
