import Testing
@testable import DecryptPlugin

@Suite struct Base64URLTests {
    @Test func decodesBothAlphabetsWithOrWithoutPadding() throws {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0x00, 0x10]
        #expect(Base64URL.encode(bytes) == "-_-_ABA")
        for text in ["-_-_ABA", "-_-_ABA=", "+/+/ABA", "+/+/ABA="] {
            #expect(try Base64URL.decode(text, what: "t") == bytes)
        }
        #expect(try Base64URL.decode("", what: "t") == [])
        #expect(try Base64URL.decode("YQ", what: "t") == [0x61])
        #expect(try Base64URL.decode("YQ==", what: "t") == [0x61])
    }

    @Test func refusesWhatIsNotBase64() {
        for text in ["-_+/", "YQ=", "Y", "YQ===", "a b", "ab\n", "YQ=a", "é"] {
            #expect(throws: DecryptError.self, "\(text)") { try Base64URL.decode(text, what: "t") }
        }
    }

    @Test func roundTripsEveryLength() throws {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) & 0xFF) }
            #expect(try Base64URL.decode(Base64URL.encode(bytes), what: "t") == bytes)
        }
    }
}
