import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The private work folders downloaders make, where partial and cached bodies live as
/// `partial-<n>` files: `$TMPDIR/nse-downloads-<uid>/XXXXXX`, one per downloader.
///
/// A folder is removed when its downloader shuts down, or at process exit with what is left in
/// it. A process that is killed can do neither, so each folder is also locked (`flock`) for as
/// long as its process lives, and the first downloader a process starts removes the unlocked
/// folders it finds beside its own: those of processes that are gone, whatever their process
/// ids (a container sharing the folder included). Keeping them under one folder of their own
/// makes that look-up a glance, not a scan of `$TMPDIR`.
enum WorkDirectories {
    /// Folders of this process still to remove, with the descriptor that holds each one's lock.
    private static let pending = Mutex<[String: Int32]>([:])
    private static let handler: Void = { atexit { WorkDirectories.removeAll() } }()
    /// The folders already swept in this process.
    private static let swept = Mutex<Set<String>>([])

    /// `base/nse-downloads-<uid>`: one folder per user, since a shared, guessable one could be
    /// made first, or swapped for a link, by another user.
    static func parent(in base: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/nse-downloads-\(geteuid())"
    }

    /// Makes a private folder under ``parent(in:)`` (made owner-only if missing, refused if it
    /// is a link or someone else's), locked until ``release(_:)`` or the process ends, and
    /// removed at exit if nobody released it.
    static func make(in base: String) throws(DownloadError) -> String {
        let parent = parent(in: base)
        if mkdir(parent, 0o700) != 0 && errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw DownloadError(.io, "Could not create the download folder \(parent): \(reason). Set TMPDIR to a writable directory.", url: "")
        }
        var status = stat()
        guard lstat(parent, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
            throw DownloadError(.io, "\(parent) is not a directory of this user's (a link, or someone else's); set TMPDIR to another directory.", url: "")
        }
        var template = Array("\(parent)/XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            let reason = String(cString: strerror(errno))
            throw DownloadError(.io, "Could not create a download work directory in \(parent): \(reason). Set TMPDIR to a writable directory.", url: "")
        }
        let path = String(cString: made)
        let lock = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if lock >= 0 { flock(lock, LOCK_EX) }
        _ = handler
        pending.withLock { $0[path] = lock }
        return path
    }

    /// Lets go of a folder its downloader has removed.
    static func release(_ directory: String) {
        if let lock = pending.withLock({ $0.removeValue(forKey: directory) }), lock >= 0 { close(lock) }
    }

    private static func removeAll() {
        for directory in pending.withLock({ $0.keys }) {
            // The engine writes its files directly in the directory, never in subfolders.
            if let listing = opendir(directory) {
                while let entry = readdir(listing) {
                    let name = entryName(entry)
                    if name != "." && name != ".." { unlink(directory + "/" + name) }
                }
                closedir(listing)
            }
            rmdir(directory)
        }
    }

    /// ``sweepStale(in:minimumAge:)`` of ``parent(in:)``, the first time a process asks for `base`.
    static func sweepStaleOnce(in base: String) {
        guard swept.withLock({ $0.insert(base).inserted }) else { return }
        sweepStale(in: parent(in: base))
    }

    /// Removes the work folders in `parent` that no live process holds: this user's directories
    /// (not links) that are unlocked and unchanged for `minimumAge` seconds (a folder is locked
    /// a moment after it is made), with the `partial-<n>` files in them. Anything else in a
    /// folder keeps it. Returns how many were removed.
    @discardableResult
    static func sweepStale(in parent: String, minimumAge: Int = 10) -> Int {
        guard let listing = opendir(parent) else { return 0 }
        defer { closedir(listing) }
        let parentFD = dirfd(listing)
        var removed = 0
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        while let entry = readdir(listing) {
            let name = entryName(entry)
            guard name != ".", name != ".." else { continue }
            let folder = openat(parentFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { continue }
            defer { close(folder) }
            var status = stat()
            guard fstat(folder, &status) == 0, status.st_uid == geteuid(),
                  now.tv_sec - status.st_mtim.tv_sec >= minimumAge,
                  flock(folder, LOCK_EX | LOCK_NB) == 0  // its process is gone
            else { continue }
            removePartialFiles(in: folder)
            if unlinkat(parentFD, name, AT_REMOVEDIR) == 0 { removed += 1 }
        }
        return removed
    }

    /// Unlinks the `partial-<n>` files of the folder open as `folder`.
    private static func removePartialFiles(in folder: Int32) {
        let copy = dup(folder)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = entryName(entry)
            let digits = name.utf8.dropFirst("partial-".utf8.count)
            if name.hasPrefix("partial-"), !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                names.append(name)
            }
        }
        for name in names { unlinkat(folder, name, 0) }
    }

    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
