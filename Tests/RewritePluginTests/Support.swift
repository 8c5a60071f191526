import Foundation
import NSECore

/// A temporary folder for one test, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("rewrite-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes text (UTF-8 unless told otherwise) at a path inside the folder, creating folders.
    @discardableResult
    func write(_ relative: String, _ text: String, encoding: String.Encoding = .utf8) throws -> String {
        guard let data = text.data(using: encoding) else { throw CocoaError(.fileWriteInapplicableStringEncoding) }
        return try write(relative, data: data)
    }

    @discardableResult
    func write(_ relative: String, data: Data) throws -> String {
        let file = (path as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// A payload from JSON text.
func payload(_ text: String) throws -> JSONObject {
    guard case .object(let object) = try JSON(parsing: text) else { fatalError("not an object: \(text)") }
    return object
}

/// A configuration value as a pipeline file at `baseDirectory` would hold it for `steps[1].rewrite`.
func options(_ text: String, baseDirectory: String = NSTemporaryDirectory()) throws -> ConfigValue {
    ConfigValue(json: try JSON(parsing: text), path: "steps[1].rewrite", baseDirectory: baseDirectory)
}
