import NSECore
import NSECurl
import NSEMagic
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Downloads one media reference into the scratch directory and says what came of it.
struct MediaFetch: Sendable {
    let downloader: Downloader
    let verdicts: VerdictMemo
    let limits: AttachmentLimits

    enum Outcome: Sendable {
        case attached(Attachment)
        case rejected(Rejection, timedOut: Bool)
        /// The step was cancelled (the deadline passed): nothing to report.
        case cancelled
    }

    func fetch(_ reference: MediaReference, identifier: String, directory: String, deadline: ContinuousClock.Instant) async -> Outcome {
        let (request, verdict) = downloadRequest(reference, identifier: identifier, directory: directory, deadline: deadline)
        do {
            return outcome(of: try await downloader.download(request), reference: reference, identifier: identifier)
        } catch {
            if error.code == .cancelled, Task.isCancelled { return .cancelled }
            return outcome(of: error, reference: reference, identifier: identifier, verdict: verdict)
        }
    }

    /// `fetch`, when the body was downloaded moments ago: on the caller's thread, without
    /// suspending. Nil when it was not, and then nothing has been done.
    func fetchIfRecent(_ reference: MediaReference, identifier: String, directory: String, deadline: ContinuousClock.Instant) -> Outcome? {
        let (request, verdict) = downloadRequest(reference, identifier: identifier, directory: directory, deadline: deadline)
        do {
            guard let result = try downloader.downloadIfRecent(request) else { return nil }
            return outcome(of: result, reference: reference, identifier: identifier)
        } catch {
            return outcome(of: error, reference: reference, identifier: identifier, verdict: verdict)
        }
    }

    private func downloadRequest(
        _ reference: MediaReference, identifier: String, directory: String, deadline: ContinuousClock.Instant
    ) -> (DownloadRequest, VerdictReason) {
        let destination = directory + "/" + AttachmentNaming.fileName(identifier: identifier, url: reference.url)
        let verdict = VerdictReason()
        let request = DownloadRequest(
            url: reference.url, destination: destination, deadline: deadline,
            maxBytes: limits.largest, classify: classifier(recording: verdict),
            // A body within every kind's limit is judged once, by the validation stage: the
            // early verdict could not cut it, and would run libmagic on it a second time.
            classifyAbove: limits.smallest)
        return (request, verdict)
    }

    private func outcome(of result: DownloadResult, reference: MediaReference, identifier: String) -> Outcome {
        if result.byteCount == 0 {
            // Nothing to classify: refuse it here rather than leave an empty file behind.
            unlink(result.file)
            return .rejected(Rejection(
                identifier: identifier, source: reference.url, reason: .invalidFileSize,
                detail: "\(reference.url) answered with an empty body (0 bytes). Check that the URL points at the media file itself."),
                timedOut: false)
        }
        return .attached(Attachment(
            identifier: identifier, file: result.file, mime: Self.mediaType(result.contentType),
            source: reference.url, options: reference.options))
    }

    private func outcome(of error: DownloadError, reference: MediaReference, identifier: String, verdict: VerdictReason) -> Outcome {
        let rejection = Rejection(
            identifier: identifier, source: reference.url,
            reason: Self.reason(for: error, verdict: verdict.value), detail: error.message)
        return .rejected(rejection, timedOut: error.code == .timedOut)
    }

    /// NSEMagic's early verdict as the downloader's `classify`: an image is cut at its own
    /// limit + 1 byte rather than at the largest limit, and a large body of no accepted type
    /// (a 40 MB archive named `.jpg`) is stopped after its first bytes.
    private func classifier(recording verdict: VerdictReason) -> @Sendable ([UInt8]) -> PrefixVerdict {
        { [verdicts] prefix in
            switch verdicts.verdict(prefix) {
            case .accept(_, let limit): return .limit(limit)
            case .needMoreBytes: return .needMoreBytes
            case .reject(let reason, let detail):
                verdict.record(reason)
                return .reject(detail)
            }
        }
    }

    /// iOS's reason for a failed download.
    static func reason(for error: DownloadError, verdict: Rejection.Reason?) -> Rejection.Reason {
        switch error.code {
        case .invalidURL, .unsupportedScheme: .invalidURL
        case .tooLarge: .invalidFileSize
        case .rejectedContent: verdict ?? .unrecognizedType
        default: .downloadFailed
        }
    }

    /// `image/jpeg` from `Image/JPEG; charset=binary`; nil when absent.
    static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        // The usual value (`image/jpeg`) is already lowercase ASCII, without parameters or blanks.
        if contentType.utf8.allSatisfy({
            $0 < 0x80 && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t")
                && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
        }) {
            return contentType.isEmpty ? nil : contentType
        }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = type.filter { $0 != " " && $0 != "\t" }.lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The reason the early verdict gave for refusing a body; written on the download thread.
final class VerdictReason: Sendable {
    private let reason = Mutex<Rejection.Reason?>(nil)
    func record(_ value: Rejection.Reason) { reason.withLock { $0 = value } }
    var value: Rejection.Reason? { reason.withLock { $0 } }
}
