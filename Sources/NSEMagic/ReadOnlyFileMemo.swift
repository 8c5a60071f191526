#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Results for files nobody may write, by inode: the downloader hands out one shared body as
/// read-only hard links, so a campaign's image reaches the validator thousands of times as the
/// same inode. Its bytes cannot have changed while the inode, size and modification time are
/// the same and no write permission exists, so libmagic reads it once.
///
/// Writable files are never remembered. Bounded: when full, it starts over.
final class ReadOnlyFileMemo: Sendable {
    struct Identity: Hashable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        var describe: DescriptionPolicy
    }

    private let results = Mutex<[Identity: SniffResult]>([:])
    private let capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// The identity of a read-only regular file, or nil when it may be written (or is missing).
    static func identity(of path: String, describe: DescriptionPolicy) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return identity(of: info, describe: describe)
    }

    /// The identity of the file `info` describes, or nil when it may be written (or is not a
    /// regular file).
    static func identity(of info: stat, describe: DescriptionPolicy) -> Identity? {
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 else { return nil }
        return Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), describe: describe)
    }

    func result(for identity: Identity) -> SniffResult? {
        results.withLock { $0[identity] }
    }

    func remember(_ result: SniffResult, for identity: Identity) {
        results.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[identity] = result
        }
    }
}
