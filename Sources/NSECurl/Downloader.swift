import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Downloads media to files with libcurl, inside limits.
///
/// One downloader serves a whole process: a single libcurl multi handle on its own thread runs
/// every transfer, so connections are reused and many files download at once. Callers asking
/// for the same URL at the same time share one transfer, and recently completed bodies are
/// reused for a short while (see ``CacheConfiguration``); each caller's own deadline and
/// limits still apply.
///
/// Bodies are streamed to disk, never held in memory. Only http and https are followed,
/// TLS is verified, and private addresses are refused unless allowed.
public final class Downloader: Sendable {
    /// The configuration the downloader was made with.
    public let configuration: Configuration
    /// The directory transfers write into before handing files over.
    public let workDirectory: String
    private let ownsWorkDirectory: Bool
    private let engine: TransferEngine

    /// Starts a downloader and its transfer thread.
    /// - Throws: ``DownloadError`` with code `io` when the work directory cannot be created.
    public init(configuration: Configuration = .init()) throws(DownloadError) {
        self.configuration = configuration
        if let directory = configuration.workDirectory {
            workDirectory = directory
            ownsWorkDirectory = false
        } else {
            let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            WorkDirectories.sweepStaleOnce(in: base)
            workDirectory = try WorkDirectories.make(in: base)
            ownsWorkDirectory = true
        }
        do {
            engine = try TransferEngine(configuration: configuration, workDirectory: workDirectory)
        } catch {
            if ownsWorkDirectory, rmdir(workDirectory) == 0 { WorkDirectories.release(workDirectory) }
            throw error
        }
    }

    deinit { shutdown() }

    /// Downloads `request.url` to the file `request.destination`.
    ///
    /// The file appears only when the download succeeds; on any failure nothing is left at the
    /// destination. A file shared with other callers is a read-only hard link: copy it before
    /// changing it in place. Cancelling the calling task aborts the transfer promptly (unless
    /// other callers still wait for the same URL).
    ///
    /// - Throws: ``DownloadError`` saying what went wrong and what to do.
    public func download(_ request: DownloadRequest) async throws(DownloadError) -> DownloadResult {
        if let recent = try downloadIfRecent(request) { return recent }
        let started = ContinuousClock.now
        try Self.validate(request.url)
        let (body, shared) = try await fetch(request).get()
        return try deliver(body, for: request, shared: shared, started: started)
    }

    /// `download`, when a recent body of the URL is at hand (see ``CacheConfiguration``):
    /// delivered on the caller's thread, without suspending. Nil when there is none, and then
    /// nothing has been done: call `download`.
    public func downloadIfRecent(_ request: DownloadRequest) throws(DownloadError) -> DownloadResult? {
        let started = ContinuousClock.now
        guard let cached = try recentBody(for: request, now: started) else { return nil }
        return try deliver(cached, for: request, shared: true, started: started)
    }

    private func deliver(
        _ body: FetchedBody, for request: DownloadRequest, shared: Bool, started: ContinuousClock.Instant
    ) throws(DownloadError) -> DownloadResult {
        if let error = FileDelivery.deliver(body.path, to: request.destination, url: request.url) {
            throw error
        }
        return DownloadResult(
            file: request.destination, byteCount: body.byteCount, contentType: body.contentType,
            effectiveURL: body.effectiveURL, httpStatus: body.httpStatus,
            redirectCount: body.redirectCount, elapsed: .now - started, shared: shared)
    }

    /// A recently completed body of the URL, judged by this caller's limits, served on the
    /// caller's thread: a campaign's later notifications cost no command to the engine, no
    /// wake-up of its thread and no suspension. Nil when there is none, or when the call is
    /// cancelled or past its deadline (the engine gives those their errors). Only URLs that
    /// passed ``validate(_:)`` and were fetched are in the cache, under the same string.
    private func recentBody(for request: DownloadRequest, now: ContinuousClock.Instant) throws(DownloadError) -> FetchedBody? {
        guard now < request.deadline, !Task.isCancelled, let body = engine.cache.lookup(request.url, now: now) else {
            return nil
        }
        var judgement = Judgement(request: request)
        if let error = judgement.judge(
            request, prefix: body.prefix, complete: true, received: body.byteCount, declared: nil,
            classifyLength: engine.settings.classifyPrefixLength, maxPrefix: engine.settings.maxPrefixLength) {
            throw error
        }
        return body
    }

    private func fetch(_ request: DownloadRequest) async -> FetchOutcome {
        let box = WaiterBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<FetchOutcome, Never>) in
                let waiter = Waiter(request: request, continuation: continuation)
                box.set(waiter)
                if Task.isCancelled { waiter.cancelled.store(true, ordering: .releasing) }
                if !engine.submit(.join(waiter)) {
                    waiter.finish(.failure(DownloadError(
                        .cancelled, "The downloader has been shut down; \(request.url) was not fetched.",
                        url: request.url)))
                }
            }
        } onCancel: {
            if let waiter = box.take() {
                waiter.cancelled.store(true, ordering: .releasing)
                engine.submit(.cancel(waiter))
            }
        }
    }

    /// Stops every transfer (their callers fail with `cancelled`), ends the transfer thread
    /// and removes the work directory it created. Later downloads fail at once.
    public func shutdown() {
        engine.shutdown()
        // Bodies still held by callers keep the folder; it is then removed at exit.
        if ownsWorkDirectory, rmdir(workDirectory) == 0 {
            WorkDirectories.release(workDirectory)
        }
    }

    /// Refuses what is not an absolute http or https URL with a host, before any network use.
    static func validate(_ url: String) throws(DownloadError) {
        guard let handle = curl_url() else {
            throw DownloadError(.transport, "libcurl could not parse \(url).", url: url)
        }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else {
            throw DownloadError(.invalidURL, "\"\(url)\" is not a valid absolute URL. Check the payload's media URL.", url: url)
        }
        var scheme: UnsafeMutablePointer<CChar>?
        curl_url_get(handle, CURLUPART_SCHEME, &scheme, 0)
        let name = scheme.map { String(cString: $0).lowercased() } ?? ""
        curl_free(scheme)
        guard name == "http" || name == "https" else {
            throw DownloadError(.unsupportedScheme, "\(url) uses the scheme \"\(name)\"; only http and https are downloaded. Serve the media over https.", url: url)
        }
        var host: UnsafeMutablePointer<CChar>?
        let hasHost = curl_url_get(handle, CURLUPART_HOST, &host, 0) == CURLUE_OK && host.map { $0.pointee != 0 } == true
        curl_free(host)
        guard hasHost else {
            throw DownloadError(.invalidURL, "\(url) has no host. Check the payload's media URL.", url: url)
        }
    }
}

/// Hands the waiter from the operation to the cancellation handler, which may run on another
/// thread, before or after it exists.
private final class WaiterBox: Sendable {
    private let waiter = Mutex<Waiter?>(nil)
    func set(_ value: Waiter) { waiter.withLock { $0 = value } }
    func take() -> Waiter? { waiter.withLock { $0 } }
}
