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

    /// `$TMPDIR/nse-<uid>`, or `/tmp/nse-<uid>`: one root per user, since a shared, guessable
    /// folder in /tmp could be made first, or swapped for a link, by another user.
    static var defaultRoot: String {
        let temp = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (temp.hasSuffix("/") ? String(temp.dropLast()) : temp) + "/nse-\(geteuid())"
    }

    func path() throws -> String {
        try created.withLock { path in
            if let path { return path }
            let firstUse = Self.verifiedRoots.withLock { !$0.contains(root) }
            if firstUse { try Self.prepareRoot(root) }
            // A unique directory per notification, named after it so a person can find it.
            let template = root + "/" + safeFileName(notificationID, fallback: "notification") + "-XXXXXX"
            var bytes = Array(template.utf8CString)
            var made = mkdtemp(&bytes)
            if made == nil, errno == ENOENT, !firstUse {
                // The root was removed since it was checked (a clean-up job): make it again.
                try Self.prepareRoot(root)
                bytes = Array(template.utf8CString)
                made = mkdtemp(&bytes)
            }
            guard let made else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
            }
            let directory = String(cString: made)
            path = directory
            return directory
        }
    }

    /// Roots checked by `prepareRoot` in this process. Once a root is known to be this user's
    /// own directory, nobody else can swap it: the root sits in a sticky folder such as /tmp
    /// (only its owner may rename or remove it) or in the user's own one. So it is checked
    /// once, not for every notification.
    private static let verifiedRoots = Mutex<Set<String>>([])

    /// The directory if a step made it.
    var existingPath: String? { created.withLock { $0 } }
}

extension ScratchDirectory {
    /// Makes the root (owner-only) if it is missing, and refuses one that is a link or belongs
    /// to someone else: files are written below it.
    static func prepareRoot(_ root: String) throws {
        if mkdir(root, 0o700) != 0 && errno != EEXIST {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var status = stat()
        guard lstat(root, &status) == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: root])
        }
        let isDirectory = status.st_mode & S_IFMT == S_IFDIR
        guard isDirectory, status.st_uid == geteuid() else {
            throw CocoaError(
                .fileWriteNoPermission,
                userInfo: [NSFilePathErrorKey: root, NSLocalizedDescriptionKey:
                    "\(root) is not a directory of this user's (a link, or someone else's); choose another scratch-dir"])
        }
        verifiedRoots.withLock { _ = $0.insert(root) }
    }
}

/// A file name made safe to use inside a directory: letters, digits, `.`, `-` and `_` only,
/// no leading dot, at most 64 characters. Attachment identifiers go through this.
public func safeFileName(_ name: String, fallback: String = "attachment") -> String {
    // Most names are safe already: check the bytes once instead of rebuilding the string.
    // `..` is looked for in the same pass: Foundation's `contains` on a String cost more than
    // the rest of the check.
    let utf8 = name.utf8
    var previous: UInt8 = 0
    if !utf8.isEmpty, utf8.count <= 64, utf8.first != UInt8(ascii: "."),
       utf8.allSatisfy({ byte in
           defer { previous = byte }
           switch byte {
           case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): return true
           case UInt8(ascii: "."): return previous != UInt8(ascii: ".")
           default: return false
           }
       }) {
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
