/// Paths of the fixture files committed under `Tests/Fixtures`, for any test target.
///
/// Found relative to this source file, so they work from every test target without
/// declaring resources, and from the repository as it is checked out.
public enum Fixtures {
    /// The repository's `Tests/Fixtures` directory.
    public static let directory: String = {
        // …/Sources/NSETesting/Fixtures.swift → …/Tests/Fixtures
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Tests/Fixtures"
    }()

    /// The path of a media fixture made by `Tests/Fixtures/media/make-fixtures.sh`, e.g. `media("picture.png")`.
    public static func media(_ name: String) -> String {
        directory + "/media/" + name
    }
}
