import Foundation
import NSECore

/// Reads payload files: plain JSON, or `.apns` files as `xcrun simctl push` reads them.
enum PayloadInput {
    /// `simctl push` reads the target app from this key; it is not part of the notification.
    static let simulatorBundleKey = "Simulator Target Bundle"

    /// Reads a file, or standard input for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot read the file (does it exist?)")
        }
        return Array(data)
    }

    /// Reads and parses one payload into a request named after its file.
    static func request(_ path: String, id: String?, receivedAt: ContinuousClock.Instant) throws -> NotificationRequest {
        let bytes = try read(path)
        var request: NotificationRequest
        do {
            request = try NotificationRequest(id: id ?? defaultID(path), json: bytes, receivedAt: receivedAt)
        } catch {
            throw CLIError("\(path == "-" ? "stdin" : path): \(error)")
        }
        if request.payload[simulatorBundleKey] != nil {
            request.payload[simulatorBundleKey] = nil
            // The text no longer matches the payload; the writer takes over (numbers stay exact).
            request.originalText = nil
        }
        return request
    }

    static func defaultID(_ path: String) -> String {
        path == "-" ? "stdin" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }
}
