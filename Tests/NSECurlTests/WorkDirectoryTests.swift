@testable import NSECurl
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work folders of processes that are gone are removed by the next downloader to start; those
/// in use, and anything that is not one, are left alone.
@Suite("Work folders")
final class WorkDirectoryTests {
    /// A private folder standing in for `$TMPDIR`, and the folder for work folders in it.
    let base = ScratchDirectory()
    var parent: String { WorkDirectories.parent(in: base.path) }

    init() {
        mkdir(WorkDirectories.parent(in: base.path), 0o700)
    }

    // Each test leaves the folder empty; `base` then goes with it.
    deinit { rmdir(parent) }

    /// A work folder as a killed process leaves it: `partial-<n>` files, no lock, unchanged for a minute.
    func staleFolder(_ name: String, files: [String] = ["partial-1", "partial-2"], age: Int = 60) -> String {
        let path = parent + "/" + name
        mkdir(path, 0o700)
        for file in files { close(open(path + "/" + file, O_CREAT | O_WRONLY, 0o600)) }
        backdate(path, by: age)
        return path
    }

    func backdate(_ path: String, by seconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [timespec(tv_sec: now.tv_sec - seconds, tv_nsec: 0), timespec(tv_sec: now.tv_sec - seconds, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    @Test func aFolderNobodyHoldsIsRemovedWithItsBodies() {
        let stale = staleFolder("AbC123")
        #expect(WorkDirectories.sweepStale(in: base.path) == 1)
        #expect(!exists(stale))
    }

    @Test func aFolderHeldByALiveDownloaderIsKept() throws {
        let live = try WorkDirectories.make(in: base.path)
        close(open(live + "/partial-7", O_CREAT | O_WRONLY, 0o600))
        backdate(live, by: 60)
        #expect(WorkDirectories.sweepStale(in: base.path) == 0)
        #expect(exists(live + "/partial-7"))
        // Once its owner lets go (as a process that ends does), it is stale.
        WorkDirectories.release(live)
        #expect(WorkDirectories.sweepStale(in: base.path) == 1)
        #expect(!exists(live))
    }

    @Test func aFolderChangedMomentsAgoIsKept() {
        // It may have been made a moment ago by a process that has not locked it yet.
        let young = staleFolder("young1", age: 0)
        #expect(WorkDirectories.sweepStale(in: base.path) == 0)
        #expect(exists(young + "/partial-1"))
        for name in ["partial-1", "partial-2"] { unlink(young + "/" + name) }
        rmdir(young)
    }

    @Test func onlyBodiesAreRemovedAndOtherFilesKeepTheFolder() {
        let mixed = staleFolder("mixed1", files: ["partial-3", "notes.txt", "partial-x"])
        #expect(WorkDirectories.sweepStale(in: base.path) == 0)
        #expect(!exists(mixed + "/partial-3"))
        #expect(exists(mixed + "/notes.txt"))
        #expect(exists(mixed + "/partial-x"))
        for name in ["notes.txt", "partial-x"] { unlink(mixed + "/" + name) }
        rmdir(mixed)
    }

    @Test func linksAreNotFollowed() {
        let elsewhere = ScratchDirectory()
        close(open(elsewhere.file("partial-1"), O_CREAT | O_WRONLY, 0o600))
        symlink(elsewhere.path, parent + "/link01")
        #expect(WorkDirectories.sweepStale(in: base.path) == 0)
        #expect(exists(elsewhere.file("partial-1")))
        unlink(parent + "/link01")
    }



    @Test func aFolderIsRemovedOnceTheProcessHoldingItIsKilled() throws {
        let folder = staleFolder("killed")
        // Another process locks it (util-linux `flock`, keeping the lock to itself), then says so.
        let holder = try #require(LockHolder(folder))
        defer { holder.finish() }
        #expect(holder.waitUntilLocked())
        #expect(WorkDirectories.sweepStale(in: base.path) == 0)
        #expect(exists(folder + "/partial-1"))
        holder.stop()
        #expect(WorkDirectories.sweepStale(in: base.path) == 1)
        #expect(!exists(folder))
    }

    @Test func nothingIsSweptThroughAParentThatIsALink() throws {
        let victim = ScratchDirectory()
        let old = victim.file("old")
        mkdir(old, 0o700)
        close(open(old + "/partial-3", O_CREAT | O_WRONLY, 0o600))
        backdate(old, by: 60)
        let linked = ScratchDirectory()
        symlink(victim.path, WorkDirectories.parent(in: linked.path))
        defer {
            unlink(WorkDirectories.parent(in: linked.path))
            unlink(old + "/partial-3")
            rmdir(old)
        }
        #expect(WorkDirectories.sweepStale(in: linked.path) == 0)
        #expect(exists(old + "/partial-3"))
        #expect(throws: DownloadError.self) { try WorkDirectories.make(in: linked.path) }
    }

    @Test func aParentOthersCanEnterIsMadeOwnerOnly() throws {
        chmod(parent, 0o777)
        let folder = try WorkDirectories.make(in: base.path)
        var status = stat()
        lstat(parent, &status)
        #expect(status.st_mode & 0o777 == 0o700)
        rmdir(folder)
        WorkDirectories.release(folder)
    }

    @Test(.enabled(if: geteuid() == 0, "changing a folder's owner needs root"))
    func anotherUsersParentIsRefusedAndNotSwept() throws {
        let stale = staleFolder("theirs1")
        chown(parent, 65534, 65534)
        defer { chown(parent, 0, 0) }
        #expect(WorkDirectories.sweepStale(in: base.path) == 0)
        #expect(exists(stale + "/partial-1"))
        #expect(throws: DownloadError.self) { try WorkDirectories.make(in: base.path) }
        chown(parent, 0, 0)
        #expect(WorkDirectories.sweepStale(in: base.path) == 1)
    }

    @Test func aDownloaderLocksItsOwnFolder() throws {
        let downloader = try Downloader()
        defer { downloader.shutdown() }
        let folder = open(downloader.workDirectory, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(flock(folder, LOCK_EX | LOCK_NB) != 0)
    }
}

/// `flock --close --exclusive FOLDER sh -c 'echo locked; read line'`: another process holding
/// a folder's lock until it is killed, started with `posix_spawn` and reaped with `waitpid`.
final class LockHolder {
    private var pid: pid_t = 0
    private let fromChild: Int32
    private let toChild: Int32

    init?(_ folder: String) {
        var output: [Int32] = [0, 0], input: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&input) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        for fd in input + output { posix_spawn_file_actions_addclose(&actions, fd) }
        let arguments = ["/usr/bin/flock", "--close", "--exclusive", folder, "/bin/sh", "-c", "echo locked; read line"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let started = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        fromChild = output[0]
        toChild = input[1]
        guard started == 0 else {
            close(fromChild)
            close(toChild)
            return nil
        }
    }

    /// Blocks until the shell, started once the lock was taken, says "locked".
    func waitUntilLocked() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 7)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fromChild, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            count += n
        }
        return buffer == Array("locked\n".utf8)
    }

    /// Kills the process holding the lock (not its shell) and reaps it.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        pid = 0
    }

    /// Kills the holder if still running, and ends the shell by closing its input.
    func finish() {
        stop()
        close(toChild)
        close(fromChild)
    }
}

