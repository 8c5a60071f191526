import Foundation
import NSETesting

/// A fresh directory for one test, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "nse-magic-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Copies a media fixture in under `name`; returns its path.
    @discardableResult
    func copy(fixture: String, as name: String) throws -> String {
        let target = path + "/" + name
        try FileManager.default.copyItem(atPath: Fixtures.media(fixture), toPath: target)
        return target
    }

    /// Copies a fixture in under `name`, padded with zero bytes to exactly `size` bytes.
    @discardableResult
    func padded(fixture: String, as name: String, to size: Int) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.media(fixture)))
        precondition(size >= data.count, "cannot pad \(fixture) down to \(size) bytes")
        data.append(Data(count: size - data.count))
        let target = path + "/" + name
        try data.write(to: URL(fileURLWithPath: target))
        return target
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + name)
    }
}
