import Synchronization

/// What a caller receives from the engine: the shared body, or why there is none.
typealias FetchOutcome = Result<(body: FetchedBody, shared: Bool), DownloadError>

/// One caller waiting for a URL. Its limits and deadline are its own, even when the transfer
/// serves several callers.
///
/// Everything except `cancelled` belongs to the engine thread.
final class Waiter: @unchecked Sendable {
    let request: DownloadRequest
    /// Set from the caller's task when it is cancelled; read by the engine thread.
    let cancelled = Atomic<Bool>(false)
    private var continuation: CheckedContinuation<FetchOutcome, Never>?
    /// The transfer this waiter is attached to, if any.
    weak var transfer: Transfer?
    /// What `classify` has said so far, and the limits that follow from it.
    private var judgement: Judgement

    init(request: DownloadRequest, continuation: CheckedContinuation<FetchOutcome, Never>) {
        self.request = request
        self.continuation = continuation
        judgement = Judgement(request: request)
    }

    /// Resumes the caller. Later calls do nothing, so every path may call it.
    func finish(_ outcome: consuming FetchOutcome) {
        let continuation = self.continuation.take()
        continuation?.resume(returning: outcome)
    }

    var isFinished: Bool { continuation == nil }

    /// Whether `classify` has given its final word (or will not be asked again).
    var hasVerdict: Bool { judgement.hasVerdict }

    /// Applies this waiter's limits to what has arrived so far (see ``Judgement/judge``).
    func judge(
        prefix: [UInt8], complete: Bool, received: Int64, declared: Int64?,
        classifyLength: Int, maxPrefix: Int
    ) -> DownloadError? {
        judgement.judge(
            request, prefix: prefix, complete: complete, received: received, declared: declared,
            classifyLength: classifyLength, maxPrefix: maxPrefix)
    }
}

/// One caller's verdict on a body: what its `classify` said of the first bytes, and whether
/// what has arrived is within its limits. A waiter holds one; a caller served from the cache
/// without the engine uses one of its own.
struct Judgement {
    /// The limit `classify` announced for the kind the bytes turned out to be.
    private var kindLimit: Int64?
    /// True once `classify` gave a final verdict, or will not be asked again.
    private var verdictDone: Bool
    /// True while `classify` is not asked because the body was known to be within
    /// `classifyAbove`.
    private var skipped = false
    private var classifiedLength = 0
    /// How many bytes `classify` sees next: the classify length, doubled after each
    /// `needMoreBytes`. Judging more bytes than asked for costs a sniffer time on the engine
    /// thread (libmagic's text checks scan the whole buffer), and a late joiner or a cached body
    /// would otherwise hand it up to the whole stored prefix.
    private var nextClassifyLength = 0

    init(request: DownloadRequest) {
        verdictDone = request.classify == nil
    }

    /// Whether `classify` has given its final word (or will not be asked again).
    var hasVerdict: Bool { verdictDone }

    /// Applies this waiter's limits to what has arrived so far; the error says why the waiter
    /// must stop, or nil when it may go on.
    ///
    /// - Parameters:
    ///   - prefix: the first bytes of the body received so far.
    ///   - complete: whether `prefix` is all the prefix there will be.
    ///   - received: body bytes received so far.
    ///   - declared: the `Content-Length` of the final response, when known.
    mutating func judge(
        _ request: DownloadRequest, prefix: [UInt8], complete: Bool, received: Int64, declared: Int64?,
        classifyLength: Int, maxPrefix: Int
    ) -> DownloadError? {
        if nextClassifyLength == 0 { nextClassifyLength = classifyLength }
        if !verdictDone, let size = complete ? received : declared, size <= request.classifyAbove {
            // No verdict could cut a body this small, and its caller checks the file anyway.
            verdictDone = true
            skipped = true
        } else if skipped, received > request.classifyAbove {
            // More arrived than the body was said to hold: judge it after all, on the bytes kept.
            skipped = false
            verdictDone = request.classify == nil
        }
        // A loop, since the bytes at hand (a cached body, a late join) may answer a `needMoreBytes`
        // at once; it ends because the length doubles up to `maxPrefix`.
        while !verdictDone, let classify = request.classify,
              prefix.count > classifiedLength, prefix.count >= nextClassifyLength || complete {
            let shown = min(prefix.count, nextClassifyLength)
            classifiedLength = shown
            switch classify(shown == prefix.count ? prefix : Array(prefix[..<shown])) {
            case .reject(let why):
                verdictDone = true
                return DownloadError(
                    .rejectedContent,
                    "The content at \(request.url) was refused: \(why). Check that the URL points at the media file itself.",
                    url: request.url)
            case .limit(let limit):
                kindLimit = limit
                verdictDone = true
            case .needMoreBytes:
                // Without a verdict after this many bytes, only the absolute cap applies.
                if (complete && shown == prefix.count) || shown >= maxPrefix { verdictDone = true }
                nextClassifyLength = min(maxPrefix, nextClassifyLength * 2)
            }
        }
        let limit = min(request.maxBytes, kindLimit ?? .max)
        let whose = kindLimit.map { $0 <= request.maxBytes } == true
            ? "the limit of the kind its first bytes show (\(limit) bytes)"
            : "the limit of \(limit) bytes"
        if let declared, declared > limit {
            return DownloadError(
                .tooLarge,
                "\(request.url) declares \(declared) bytes (Content-Length), over \(whose); nothing was downloaded. Send a smaller file.",
                url: request.url)
        }
        if received > limit {
            return DownloadError(
                .tooLarge,
                "The body of \(request.url) passed \(whose) and the transfer was cut. Send a smaller file.",
                url: request.url)
        }
        return nil
    }
}
