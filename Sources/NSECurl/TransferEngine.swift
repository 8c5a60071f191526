import NSECore
import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libcurl multi handle driven by its own thread, serving every download of a
/// ``Downloader``: connections are reused, transfers run side by side, and callers asking for
/// the same URL at the same time share one transfer.
///
/// Other threads talk to it only through `submit`, which queues a command and wakes the
/// thread with `curl_multi_wakeup`. Everything else belongs to the engine thread.
final class TransferEngine: @unchecked Sendable {
    enum Command {
        case join(Waiter)
        case cancel(Waiter)
        case shutdown
    }

    private let multi: MultiHandle
    private let configuration: Downloader.Configuration
    private let workDirectory: String
    let settings: TransferSettings
    /// Recently completed bodies; callers look here themselves before queueing a join.
    let cache: RecentBodies
    private let inbox = Mutex<(commands: [Command], open: Bool)>(([], true))
    private var thread: JoinableThread?

    // Engine thread only.
    private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
    private var inFlight: [String: Transfer] = [:]
    private var running = true
    private var sequence = 0
    private let pending = PendingDrops()
    /// No waiter's deadline is earlier than this, so expiry scans only when it has passed.
    private var nextDeadline = ContinuousClock.Instant.now + .seconds(3600)

    init(configuration: Downloader.Configuration, workDirectory: String) throws(DownloadError) {
        guard CurlGlobal.initialized == CURLE_OK, let multi = MultiHandle() else {
            throw DownloadError(.transport, "libcurl could not be initialised.", url: "")
        }
        self.multi = multi
        self.configuration = configuration
        self.workDirectory = workDirectory
        settings = TransferSettings(
            allowPrivateAddresses: configuration.allowPrivateAddresses,
            classifyPrefixLength: max(1, configuration.classifyPrefixLength),
            maxPrefixLength: max(configuration.classifyPrefixLength, 64 * 1024))
        cache = RecentBodies(configuration: configuration.cache)
        multi.set(CURLMOPT_MAX_TOTAL_CONNECTIONS, max(1, configuration.maxConcurrentTransfers))
        guard let thread = JoinableThread({ [self] in run() }) else {
            throw DownloadError(.transport, "Could not start the download thread.", url: "")
        }
        self.thread = thread
    }

    /// Queues a command for the engine thread. Returns false once the engine has shut down.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        let accepted = inbox.withLock { inbox in
            guard inbox.open else { return false }
            inbox.commands.append(command)
            return true
        }
        if accepted { multi.wakeup() }
        return accepted
    }

    /// Stops the engine: every waiting caller fails with `cancelled`. Returns when the thread
    /// has finished.
    func shutdown() {
        submit(.shutdown)
        thread?.join()
        thread = nil
    }

    // MARK: The engine thread

    private func run() {
        while running {
            drainCommands()
            guard running else { break }
            var active: Int32 = 0
            curl_multi_perform(multi.raw, &active)
            collectFinished()
            let now = ContinuousClock.now
            expireWaiters(now: now)
            resumeDropped()
            curl_multi_poll(multi.raw, nil, 0, pollTimeout(now: now), nil)
        }
        for transfer in Array(transfers.values) {
            transfer.stopAll(DownloadError(
                .cancelled, "The downloader was shut down before \(transfer.url) arrived.", url: transfer.url))
            abandon(transfer)
        }
        cache.removeAll()
    }

    private func drainCommands() {
        var queue = inbox.withLock { inbox in
            defer { inbox.commands.removeAll() }
            return inbox.commands
        }
        var index = 0
        while index < queue.count {
            switch queue[index] {
            case .join(let waiter): join(waiter)
            case .cancel(let waiter): cancel(waiter)
            case .shutdown:
                running = false
                // Close the inbox and answer what slipped in before, so no caller hangs.
                queue += inbox.withLock { inbox in
                    inbox.open = false
                    defer { inbox.commands.removeAll() }
                    return inbox.commands
                }
            }
            index += 1
        }
    }

    private static func shutDownError(_ url: String) -> DownloadError {
        DownloadError(.cancelled, "The downloader has been shut down; \(url) was not fetched.", url: url)
    }

    private func join(_ waiter: Waiter) {
        let request = waiter.request
        let now = ContinuousClock.now
        guard running else { return waiter.finish(.failure(Self.shutDownError(request.url))) }
        if waiter.cancelled.load(ordering: .acquiring) {
            return waiter.finish(.failure(Self.cancelledError(request.url)))
        }
        if now >= request.deadline {
            return waiter.finish(.failure(Self.deadlineError(request.url)))
        }
        if let body = cache.lookup(request.url, now: now) {
            let verdict = waiter.judge(
                prefix: body.prefix, complete: true, received: body.byteCount, declared: nil,
                classifyLength: settings.classifyPrefixLength, maxPrefix: settings.maxPrefixLength)
            return waiter.finish(verdict.map { .failure($0) } ?? .success((body, true)))
        }
        nextDeadline = min(nextDeadline, request.deadline)
        if let transfer = inFlight[request.url], transfer.stopReason == nil {
            if let error = transfer.attach(waiter) { waiter.finish(.failure(error)) }
            return
        }
        switch start(request.url) {
        case .success(let transfer):
            if let error = transfer.attach(waiter) {
                waiter.finish(.failure(error))
                abandon(transfer)
            }
        case .failure(let error):
            waiter.finish(.failure(error))
        }
    }

    private func cancel(_ waiter: Waiter) {
        guard let transfer = waiter.transfer else { return }  // finished, or not joined yet
        transfer.detach(waiter)
        if transfer.waiters.isEmpty { abandon(transfer) }  // deletes the partial file first
        waiter.finish(.failure(Self.cancelledError(waiter.request.url)))
    }

    private static func cancelledError(_ url: String) -> DownloadError {
        DownloadError(.cancelled, "The download of \(url) was cancelled.", url: url)
    }

    private static func deadlineError(_ url: String) -> DownloadError {
        DownloadError(
            .timedOut,
            "\(url) did not arrive before the deadline; the transfer was aborted. Use a faster host or a smaller file.",
            url: url)
    }

    /// Creates the partial file and the easy handle, and hands the transfer to the multi handle.
    private func start(_ url: String) -> Result<Transfer, DownloadError> {
        sequence += 1
        let path = workDirectory + "/" + WorkDirectories.bodyName(sequence)
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            return .failure(DownloadError(
                .io, "Could not create a file in the download work directory \(workDirectory): \(reason).", url: url))
        }
        guard let easy = EasyHandle() else {
            close(fd)
            unlink(path)
            return .failure(DownloadError(.transport, "libcurl could not create a transfer for \(url).", url: url))
        }
        let transfer = Transfer(url: url, easy: easy, tempPath: path, fd: fd, settings: settings, pending: pending)
        EasyConfigurator.configure(easy, url: url, configuration: configuration,
                                   context: Unmanaged.passUnretained(transfer).toOpaque())
        guard curl_multi_add_handle(multi.raw, easy.raw) == CURLM_OK else {
            transfer.closeFile()
            unlink(path)
            return .failure(DownloadError(.transport, "libcurl could not start the transfer of \(url).", url: url))
        }
        transfers[easy.raw] = transfer
        inFlight[url] = transfer
        return .success(transfer)
    }

    /// Removes a transfer that nobody waits for any more, and deletes its partial file.
    private func abandon(_ transfer: Transfer) {
        if transfers.removeValue(forKey: transfer.easy.raw) != nil {
            curl_multi_remove_handle(multi.raw, transfer.easy.raw)
        }
        if inFlight[transfer.url] === transfer { inFlight[transfer.url] = nil }
        transfer.closeFile()
        unlink(transfer.tempPath)
        resume(transfer.dropped)
        transfer.dropped.removeAll()
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi.raw, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                  let transfer = transfers[raw] else { continue }
            finish(transfer, code: nse_multi_msg_result(message))
        }
    }

    private func finish(_ transfer: Transfer, code: CURLcode) {
        let failure: DownloadError? = code == CURLE_OK ? nil : (transfer.stopReason ?? describe(code, transfer))
        let status = transfer.easy.int(CURLINFO_RESPONSE_CODE) ?? 0
        if let failure {
            transfer.stopAll(failure)
        } else if !(200..<300).contains(status) {
            transfer.stopAll(Transfer.statusError(status, url: transfer.url))
        } else {
            _ = transfer.judgeAll(complete: true)  // bodies shorter than the classify prefix
        }
        guard !transfer.waiters.isEmpty else { return abandon(transfer) }

        transfers.removeValue(forKey: transfer.easy.raw)
        curl_multi_remove_handle(multi.raw, transfer.easy.raw)
        if inFlight[transfer.url] === transfer { inFlight[transfer.url] = nil }
        transfer.closeFile()
        var body: FetchedBody? = FetchedBody(
            path: transfer.tempPath, byteCount: transfer.received,
            contentType: transfer.easy.string(CURLINFO_CONTENT_TYPE),
            effectiveURL: transfer.easy.string(CURLINFO_EFFECTIVE_URL) ?? transfer.url,
            httpStatus: status, redirectCount: transfer.easy.int(CURLINFO_REDIRECT_COUNT) ?? 0,
            prefix: transfer.prefix)
        cache.insert(transfer.url, body!, now: .now)
        resume(transfer.dropped)
        transfer.dropped.removeAll()
        let waiters = transfer.waiters
        transfer.waiters.removeAll()
        for (index, waiter) in waiters.enumerated() {
            waiter.transfer = nil
            // The last caller gets the engine's own reference, so a body the cache did not keep
            // is deleted when the callers let go, not when this thread gets round to it.
            waiter.finish(.success((index == waiters.count - 1 ? body.take()! : body!, transfer.servedSeveral)))
        }
    }

    /// Turns libcurl's failure into a ``DownloadError`` that says what to do.
    private func describe(_ code: CURLcode, _ transfer: Transfer) -> DownloadError {
        let url = transfer.url
        let detail = transfer.easy.errorText.isEmpty ? CurlGlobal.describe(code) : transfer.easy.errorText
        func error(_ kind: DownloadError.Code, _ message: String) -> DownloadError {
            DownloadError(kind, message, url: url, curlCode: Int(code.rawValue), curlMessage: detail)
        }
        if let refused = transfer.refusedAddress {
            return error(.privateAddress,
                "\(url) leads to \(refused.address), a \(refused.reason) address, which is refused. "
                + "If this host is meant to be reachable, set `network: { allow-private: true }` in the pipeline.")
        }
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            return error(.unsupportedScheme,
                "\(url) leads (directly or by a redirect) to a scheme other than http or https. Serve the media over https.")
        case CURLE_URL_MALFORMAT:
            return error(.invalidURL, "\(url) is not a valid URL. Check the payload's media URL.")
        case CURLE_TOO_MANY_REDIRECTS:
            return error(.tooManyRedirects,
                "\(url) redirected more than \(configuration.maxRedirects) times. Point the payload at the final URL.")
        case CURLE_OPERATION_TIMEDOUT:
            if transfer.easy.int(CURLINFO_CONNECT_TIME_T) ?? 0 == 0, transfer.received == 0, !transfer.headersDone,
               detail.lowercased().contains("connect") {
                return error(.stalled, "Could not connect to the host of \(url) in time. Check that the host is up.")
            }
            return error(.stalled,
                "The server of \(url) stopped sending for longer than the stall timeout. Check that the host is healthy.")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return error(.transport,
                "The TLS connection to the host of \(url) failed or its certificate could not be verified. Serve the media with a valid certificate.")
        default:
            return error(.transport, "The transfer of \(url) failed: \(detail).")
        }
    }

    /// Fails callers whose own deadline has passed; a transfer nobody waits for stops at once.
    private func expireWaiters(now: ContinuousClock.Instant) {
        guard now >= nextDeadline else { return }
        nextDeadline = now + .seconds(3600)
        for transfer in Array(transfers.values) where transfer.stopReason == nil {
            for waiter in transfer.waiters {
                if waiter.request.deadline <= now {
                    transfer.detach(waiter)
                    transfer.drop(waiter, Self.deadlineError(waiter.request.url))
                } else {
                    nextDeadline = min(nextDeadline, waiter.request.deadline)
                }
            }
            if transfer.waiters.isEmpty { abandon(transfer) }
        }
    }

    /// Resumes callers dropped inside libcurl callbacks. A transfer left with nobody has been
    /// aborted by its callback and is cleaned up when libcurl reports it done; its callers are
    /// resumed then, after the partial file is gone.
    private func resumeDropped() {
        let reported = pending.transfers
        pending.transfers.removeAll()
        for transfer in reported where !transfer.dropped.isEmpty {
            if transfer.waiters.isEmpty && transfers[transfer.easy.raw] === transfer {
                pending.transfers.append(transfer)  // still aborting; resumed when done
                continue
            }
            resume(transfer.dropped)
            transfer.dropped.removeAll()
        }
    }

    private func resume(_ dropped: [(Waiter, DownloadError)]) {
        for (waiter, error) in dropped { waiter.finish(.failure(error)) }
    }

    /// Wakes up for the nearest deadline; libcurl shortens the wait for its own timers.
    private func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        let wait = min(Duration.seconds(1), nextDeadline - now)
        let ms = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms + 1))
    }
}
