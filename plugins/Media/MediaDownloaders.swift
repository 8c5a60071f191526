import NSECurl
import Synchronization

/// The process's downloaders, one per network policy, shared by every `media` step.
///
/// One downloader is one libcurl multi handle and one thread; sharing it is what lets
/// connections be reused and one URL asked for by many notifications be fetched once. Pipelines
/// that allow private addresses get their own, so the address guard of one never loosens another's.
public enum MediaDownloaders {
    private static let downloaders = Mutex<[Bool: Downloader]>([:])

    /// The downloader for pipelines with (or without) `network.allow-private`, made on first use.
    /// - Throws: ``DownloadError`` when its work directory cannot be made; the next call tries again.
    public static func shared(allowPrivateNetwork: Bool) throws(DownloadError) -> Downloader {
        try downloaders.withLock { (all) throws(DownloadError) -> Downloader in
            if let existing = all[allowPrivateNetwork] { return existing }
            let made = try Downloader(configuration: .init(allowPrivateAddresses: allowPrivateNetwork))
            all[allowPrivateNetwork] = made
            return made
        }
    }

    /// Shuts down every shared downloader (transfers still running fail as cancelled) and
    /// removes their work folders; the next ``shared(allowPrivateNetwork:)`` makes a new one.
    /// For a process about to exit: the shared downloaders are never released otherwise.
    public static func shutdownAll() {
        let all = downloaders.withLock { all in
            defer { all = [:] }
            return Array(all.values)
        }
        for downloader in all { downloader.shutdown() }
    }
}
