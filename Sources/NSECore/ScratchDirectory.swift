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
            // A unique directory per notification, named after it so a person can find it.
            let template = root + "/" + safeFileName(notificationID, fallback: "notification") + "-XXXXXX"
            var bytes = Array(template.utf8CString)
            // The root is made once per process, not once per notification (FileManager's
            // intermediate-directory walk cost as much as the mkdir itself). Should it vanish
            // later, mkdtemp fails with ENOENT and the root is made again.
            if !Self.knownRoots.withLock({ $0.contains(root) }) || mkdtemp(&bytes) == nil {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
                Self.knownRoots.withLock { _ = $0.insert(root) }
                bytes = Array(template.utf8CString)
                guard mkdtemp(&bytes) != nil else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
                }
            }
            let directory = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = directory
            return directory
        }
    }

    /// Roots this process has made (or found) already.
    private static let knownRoots = Mutex<Set<String>>([])

    /// The directory if a step made it.
    var existingPath: String? { created.withLock { $0 } }
}

/// A file name made safe to use inside a directory: letters, digits, `.`, `-` and `_` only,
/// no leading dot, at most 64 characters. Attachment identifiers go through this.
public func safeFileName(_ name: String, fallback: String = "attachment") -> String {
    // Most names are safe already: check the bytes once instead of rebuilding the string.
    let utf8 = name.utf8
    if !utf8.isEmpty, utf8.count <= 64, utf8.first != UInt8(ascii: "."),
       utf8.allSatisfy({ byte in
           switch byte {
           case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
           default: false
           }
       }),
       !name.contains("..") {
        return name
    }
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
