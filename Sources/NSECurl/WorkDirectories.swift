import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The private work folders downloaders make, where partial and cached bodies live as
/// `partial-<n>` files: `$TMPDIR/nse-downloads-<uid>/XXXXXX`, one per downloader.
///
/// A folder is removed when its downloader shuts down (or, if callers still hold bodies, at
/// process exit), and at exit with what is left in it when nobody shut the downloader down. A
/// process that is killed can do neither, so each folder is also locked (`flock`) for as long
/// as its process lives, and the first downloader a process starts removes the unlocked
/// folders it finds beside its own. Locks belong to the kernel, not to process ids, so this
/// holds for processes in other PID namespaces too, as long as they share this kernel and a
/// local file system. Keeping the folders under one folder of their own makes that look-up a
/// glance, not a scan of `$TMPDIR`.
enum WorkDirectories {
    /// Folders of this process still to remove, with the descriptor that holds each one's lock.
    private static let pending = Mutex<[String: Int32]>([:])
    private static let handler: Void = { atexit { WorkDirectories.removeAll() } }()
    /// The bases already swept in this process.
    private static let swept = Mutex<Set<String>>([])

    /// `base/nse-downloads-<uid>`: one folder per user, since a shared, guessable one could be
    /// made first, or swapped for a link, by another user.
    static func parent(in base: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/nse-downloads-\(geteuid())"
    }

    /// Opens ``parent(in:)`` (made first if `create`), refusing a link or another user's
    /// folder, and making the user's own folder owner-only: the work folders in it are then
    /// out of everyone else's reach. A failure says why it cannot be used.
    private static func openParent(in base: String, create: Bool) -> Result<Int32, DownloadError> {
        let parent = parent(in: base)
        if create, mkdir(parent, 0o700) != 0, errno != EEXIST {
            let reason = String(cString: strerror(errno))
            return .failure(DownloadError(.io, "Could not create the download folder \(parent): \(reason). Set TMPDIR to a writable directory.", url: ""))
        }
        let refused = DownloadError(
            .io, "\(parent) is not a directory of this user's (a link, or someone else's); set TMPDIR to another directory.", url: "")
        let fd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return .failure(code == ELOOP || code == ENOTDIR ? refused : DownloadError(
                .io, "Could not open the download folder \(parent): \(String(cString: strerror(code))).", url: ""))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_uid == geteuid(),
              status.st_mode & 0o077 == 0 || fchmod(fd, 0o700) == 0
        else {
            close(fd)
            return .failure(refused)
        }
        return .success(fd)
    }

    /// Makes a private folder under ``parent(in:)``, locked until ``release(_:)`` or the
    /// process ends, and removed at exit if nobody released it.
    static func make(in base: String) throws(DownloadError) -> String {
        let parentFD = try openParent(in: base, create: true).get()
        defer { close(parentFD) }
        let parent = parent(in: base)
        // Made, then locked: a sweep between the two (it waits 10 s for a folder that has not
        // changed, but clocks can jump) could remove it, so the locked folder must still be
        // the one at the path.
        for _ in 0..<3 {
            var template = Array("\(parent)/XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else {
                let reason = String(cString: strerror(errno))
                throw DownloadError(.io, "Could not create a download work directory in \(parent): \(reason). Set TMPDIR to a writable directory.", url: "")
            }
            let path = String(cString: made)
            let name = String(path.suffix(6))  // the template's XXXXXX, filled in
            let lock = openat(parentFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                if lock >= 0 { close(lock) }
                // Held by a sweep that took it for abandoned: it is going; make another.
                if code == EWOULDBLOCK { continue }
                // Unlocked, it would look abandoned to other processes: do not use it.
                unlinkat(parentFD, name, AT_REMOVEDIR)
                throw DownloadError(.io, "Could not lock the download work directory \(path): \(String(cString: strerror(code))).", url: "")
            }
            var locked = stat(), current = stat()
            guard fstat(lock, &locked) == 0, fstatat(parentFD, name, &current, AT_SYMLINK_NOFOLLOW) == 0,
                  locked.st_dev == current.st_dev, locked.st_ino == current.st_ino
            else {
                close(lock)
                continue
            }
            _ = handler
            pending.withLock { $0[path] = lock }
            return path
        }
        throw DownloadError(.io, "Could not keep a download work directory in \(parent): each one was removed as it was made.", url: "")
    }

    /// Lets go of a folder its downloader has removed, or could not use.
    static func release(_ directory: String) {
        if let lock = pending.withLock({ $0.removeValue(forKey: directory) }) { close(lock) }
    }

    /// Removes this process's folders with what is left in them, through the descriptors
    /// that hold them, so nothing is reached through a link.
    private static func removeAll() {
        for (directory, lock) in pending.withLock({ $0 }) {
            // The engine writes its files directly in the folder, never in subfolders.
            for name in names(in: lock) { unlinkat(lock, name, 0) }
            rmdir(directory)
        }
    }

    /// ``sweepStale(in:minimumAge:)`` of ``parent(in:)``, the first time a process asks for `base`.
    static func sweepStaleOnce(in base: String) {
        guard swept.withLock({ $0.insert(base).inserted }) else { return }
        sweepStale(in: base)
    }

    /// Removes the work folders under ``parent(in:)`` that no live process holds: this user's
    /// directories (not links) that are unlocked and unchanged for `minimumAge` seconds, with
    /// the `partial-<n>` files in them. Anything else in a folder keeps it. Nothing is done if
    /// the parent is a link or another user's. Returns how many folders were removed.
    @discardableResult
    static func sweepStale(in base: String, minimumAge: Int = 10) -> Int {
        guard case .success(let parentFD) = openParent(in: base, create: false) else { return 0 }
        defer { close(parentFD) }
        var removed = 0
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for name in names(in: parentFD) {
            let folder = openat(parentFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { continue }
            defer { close(folder) }
            var status = stat()
            guard fstat(folder, &status) == 0, status.st_uid == geteuid(),
                  now.tv_sec - status.st_mtim.tv_sec >= minimumAge,
                  flock(folder, LOCK_EX | LOCK_NB) == 0  // its process is gone
            else { continue }
            for file in names(in: folder) where isBodyName(file) { unlinkat(folder, file, 0) }
            if unlinkat(parentFD, name, AT_REMOVEDIR) == 0 { removed += 1 }
        }
        return removed
    }

    /// The name of the engine's `number`th file in its folder: the only names it gives.
    static func bodyName(_ number: Int) -> String { "partial-\(number)" }

    /// Whether `name` is one ``bodyName(_:)`` gives.
    static func isBodyName(_ name: String) -> Bool {
        let digits = name.utf8.dropFirst("partial-".utf8.count)
        return name.hasPrefix("partial-") && !digits.isEmpty
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The names in the directory open as `directory`, without `.` and `..`.
    private static func names(in directory: Int32) -> [String] {
        let copy = dup(directory)
        guard copy >= 0 else { return [] }
        guard let listing = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(listing) }
        rewinddir(listing)
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
