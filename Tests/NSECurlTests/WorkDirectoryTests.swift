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
        #expect(WorkDirectories.sweepStale(in: parent) == 1)
        #expect(!exists(stale))
    }

    @Test func aFolderHeldByALiveDownloaderIsKept() throws {
        let live = try WorkDirectories.make(in: base.path)
        close(open(live + "/partial-7", O_CREAT | O_WRONLY, 0o600))
        backdate(live, by: 60)
        #expect(WorkDirectories.sweepStale(in: parent) == 0)
        #expect(exists(live + "/partial-7"))
        // Once its owner lets go (as a process that ends does), it is stale.
        WorkDirectories.release(live)
        #expect(WorkDirectories.sweepStale(in: parent) == 1)
        #expect(!exists(live))
    }

    @Test func aFolderChangedMomentsAgoIsKept() {
        // It may have been made a moment ago by a process that has not locked it yet.
        let young = staleFolder("young1", age: 0)
        #expect(WorkDirectories.sweepStale(in: parent) == 0)
        #expect(exists(young + "/partial-1"))
        for name in ["partial-1", "partial-2"] { unlink(young + "/" + name) }
        rmdir(young)
    }

    @Test func onlyBodiesAreRemovedAndOtherFilesKeepTheFolder() {
        let mixed = staleFolder("mixed1", files: ["partial-3", "notes.txt", "partial-x"])
        #expect(WorkDirectories.sweepStale(in: parent) == 0)
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
        #expect(WorkDirectories.sweepStale(in: parent) == 0)
        #expect(exists(elsewhere.file("partial-1")))
        unlink(parent + "/link01")
    }

    @Test func aParentThatIsALinkIsRefused() {
        let elsewhere = ScratchDirectory()
        let linked = ScratchDirectory()
        symlink(elsewhere.path, WorkDirectories.parent(in: linked.path))
        defer { unlink(WorkDirectories.parent(in: linked.path)) }
        #expect(throws: DownloadError.self) { try WorkDirectories.make(in: linked.path) }
        #expect(ScratchDirectory.list(elsewhere.path).isEmpty)
    }

    @Test func aDownloaderLocksItsOwnFolder() throws {
        let downloader = try Downloader()
        defer { downloader.shutdown() }
        let folder = open(downloader.workDirectory, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(flock(folder, LOCK_EX | LOCK_NB) != 0)
    }
}
