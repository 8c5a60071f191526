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
            var checked = Self.checkedRoots.withLock { $0[root] }
            if checked == nil { checked = try Self.prepareRoot(root) }
            // A unique directory per notification, named after it so a person can find it.
            let template = root + "/" + safeFileName(notificationID, fallback: "notification") + "-XXXXXX"
            for attempt in 0..<2 {
                var bytes = Array(template.utf8CString)
                let made = mkdtemp(&bytes)
                let failure = errno
                // The root must still be the directory that was checked: one removed by a
                // clean-up job could have been made again by someone else, or be a link now.
                if Self.identity(of: root) == checked, let made {
                    let directory = String(cString: made)
                    path = directory
                    return directory
                }
                if let made { rmdir(made) }
                guard attempt == 0, made != nil || failure == ENOENT else { break }
                checked = try Self.prepareRoot(root)
            }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: template])
        }
    }

    /// Roots checked by `prepareRoot` in this process, with what they were then. Each
    /// notification compares the root with that (one `lstat`) instead of checking it in full.
    private static let checkedRoots = Mutex<[String: RootIdentity]>([:])

    struct RootIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The device and inode of `root` itself (not what a link points to), if it exists.
    static func identity(of root: String) -> RootIdentity? {
        var status = stat()
        guard lstat(root, &status) == 0 else { return nil }
        return RootIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The directory if a step made it.
    var existingPath: String? { created.withLock { $0 } }
}

extension ScratchDirectory {
    /// Makes the root (owner-only) if it is missing, and refuses one that is a link or belongs
    /// to someone else: files are written below it.
    @discardableResult
    static func prepareRoot(_ root: String) throws -> RootIdentity {
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
        let identity = RootIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        checkedRoots.withLock { $0[root] = identity }
        return identity
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
