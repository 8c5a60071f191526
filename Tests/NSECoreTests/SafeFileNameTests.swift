import NSECore
import Testing

@Suite struct SafeFileNameTests {
    @Test(arguments: [
        ("image", "image"), ("image-2", "image-2"), ("a.b_c", "a.b_c"),
        ("a..b", "a_b"), ("..", "_"), (".hidden", "hidden"), ("a/../b", "a___b"),
        ("x..", "x_"), ("", "attachment"), ("é", "_"),
    ])
    func names(_ input: String, _ expected: String) {
        #expect(safeFileName(input) == expected)
    }

    @Test func longNamesAreCut() {
        #expect(safeFileName(String(repeating: "a", count: 80)) == String(repeating: "a", count: 64))
    }
}
