#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A notification's own directory under a root, made only when a step first asks for it.
final class ScratchDirectory: Sendable {
    let root: String
    let notificationID: String
    private let created = Mutex<String?>(nil)

    init(root: String, notificationID: String) {
        self.root = root
        self.notificationID = notificationID
    }

    /// `$TMPDIR/nse`, or `/tmp/nse`.
    static var defaultRoot: String {
        let temp = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (temp.hasSuffix("/") ? String(temp.dropLast()) : temp) + "/nse"
    }

    func path() throws -> String {
        try created.withLock { path in
            if let path { return path }
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            // A unique directory per notification, named after it so a person can find it.
            let template = root + "/" + safeFileName(notificationID, fallback: "notification") + "-XXXXXX"
            var bytes = Array(template.utf8CString)
            guard let made = mkdtemp(&bytes) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
            }
            let directory = String(cString: made)
            path = directory
            return directory
        }
    }

    /// The directory if a step made it.
    var existingPath: String? { created.withLock { $0 } }
}

/// A file name made safe to use inside a directory: letters, digits, `.`, `-` and `_` only,
/// no leading dot, at most 64 characters. Attachment identifiers go through this.
public func safeFileName(_ name: String, fallback: String = "attachment") -> String {
    var result = String(name.unicodeScalars.prefix(64).map { scalar -> Character in
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": Character(scalar)
        default: "_"
        }
    })
    // No `..` anywhere, and no hidden files.
    while result.contains("..") { result = result.replacingOccurrences(of: "..", with: "_") }
    while result.hasPrefix(".") { result.removeFirst() }
    return result.isEmpty ? fallback : result
}
