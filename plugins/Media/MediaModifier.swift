#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NSECore
import NSECurl
import NSEMagic

/// The `media` step: finds media URLs in the payload, downloads them (several at once) into
/// the notification's scratch directory and adds them as attachments.
///
/// The payload is left as it is: the URL keys stay, as they do on the phone. A download that
/// fails is recorded as a rejection and the notification goes out without that attachment;
/// the step itself does not fail. The pipeline's validation stage then checks each file by
/// its bytes and gives it the right extension.
public struct MediaModifier: Modifier {
    /// Where the common SDKs put the media URL, in the order they are looked at.
    public static let defaultKeys = [
        "media-url", "attachment-url", "image",
        "fcm_options.image",                  // Firebase
        "att",                                // OneSignal
        "com.urbanairship.media_attachment",  // Airship
        "ab.att.url",                         // Braze
        "ct_mediaUrl",                        // CleverTap
        "attachment",                         // Pushwoosh
        "itbl.attachment-url",                // Iterable
        "CIO.push.image",                     // Customer.io
    ]

    /// Attachments a notification gets at most, unless configured.
    public static let defaultMaxAttachments = 10

    public var name: String { "media" }

    /// It reads the payload and then awaits its transfers, which run on libcurl's own thread.
    public var neverBlocks: Bool { true }
    /// The key paths searched for URLs.
    public var keys: [String] {
        didSet { locator = MediaLocator(keys: keys) }
    }
    /// The locator for `keys`, built once rather than per notification.
    private var locator: MediaLocator
    /// How many attachments one notification gets at most; further URLs are ignored with a warning.
    public var maxAttachments: Int
    /// The size limit of each kind: a transfer stops once it passes the limit of the kind its
    /// first bytes show.
    public let limits: AttachmentLimits
    /// The downloader (share one per process: see ``MediaDownloaders``).
    public let downloader: Downloader
    /// The sniffer that judges the first bytes of each transfer.
    public let sniffer: MagicSniffer
    /// Downloads one reference, with the verdicts and limits above.
    private let fetch: MediaFetch

    /// A media step.
    public init(
        keys: [String] = MediaModifier.defaultKeys,
        maxAttachments: Int = MediaModifier.defaultMaxAttachments,
        limits: AttachmentLimits = .ios,
        downloader: Downloader,
        sniffer: MagicSniffer
    ) {
        self.keys = keys
        locator = MediaLocator(keys: keys)
        self.maxAttachments = maxAttachments
        self.limits = limits
        self.downloader = downloader
        self.sniffer = sniffer
        fetch = MediaFetch(downloader: downloader, verdicts: VerdictMemo(sniffer: sniffer, limits: limits), limits: limits)
    }

    /// Downloads the media the payload names and appends them to `content.attachments`.
    public func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {
        let found = locator.locate(in: content.payload)
        for warning in found.warnings { context.warn(warning) }
        var references = found.references
        guard !references.isEmpty else { return }
        if references.count > maxAttachments {
            context.warn("media: \(references.count) media URLs found, only the first \(maxAttachments) are downloaded (max-attachments)")
            references = Array(references.prefix(maxAttachments))
        }

        var naming = AttachmentNaming(existing: content.attachments)
        let planned = references.map { (reference: $0, identifier: naming.uniqueIdentifier($0.identifier)) }
        let directory: String
        do {
            directory = try context.scratchDirectory()
        } catch {
            for item in planned {
                context.reject(Rejection(
                    identifier: item.identifier, source: item.reference.url, reason: .downloadFailed,
                    detail: "no scratch directory to download into: \(error)"))
            }
            return
        }

        Self.apply(await download(planned, into: directory, deadline: context.deadline), to: &content, context: context)
    }

    /// Adds the files to the content and records the rejections, in order.
    private static func apply(_ outcomes: [MediaFetch.Outcome], to content: inout NotificationContent, context: ModifierContext) {
        for outcome in outcomes {
            switch outcome {
            case .attached(let attachment):
                content.attachments.append(attachment)
            case .rejected(let rejection, _):
                // Transfers cut by the deadline are rejected too; the pipeline treats a chain
                // that ends past its deadline as late and answers with its fallback.
                context.reject(rejection)
            case .cancelled:
                // The deadline passed: the answer has gone already.
                return
            }
        }
    }

    /// The whole step at once when every file the payload names was downloaded moments ago (a
    /// campaign's later notifications): each is delivered on the caller's thread, with no
    /// suspension. Otherwise false, with nothing done.
    public func modifyImmediately(_ content: inout NotificationContent, context: ModifierContext) throws -> Bool {
        let found = locator.locate(in: content.payload)
        guard !found.references.isEmpty else {
            for warning in found.warnings { context.warn(warning) }
            return true
        }
        guard found.references.count <= maxAttachments,
              let directory = try? context.scratchDirectory()  // made once; `modify` finds it again
        else { return false }
        var naming = AttachmentNaming(existing: content.attachments)
        var outcomes: [MediaFetch.Outcome] = []
        outcomes.reserveCapacity(found.references.count)
        for reference in found.references {
            let identifier = naming.uniqueIdentifier(reference.identifier)
            guard let outcome = fetch.fetchIfRecent(reference, identifier: identifier, directory: directory, deadline: context.deadline) else {
                // Not at hand: undo what was delivered, and let `modify` do it all.
                for case .attached(let attachment) in outcomes { unlink(attachment.file) }
                return false
            }
            outcomes.append(outcome)
        }
        for warning in found.warnings { context.warn(warning) }
        Self.apply(outcomes, to: &content, context: context)
        return true
    }

    /// Runs every download at once; the outcomes come back in the order of `planned`.
    private func download(
        _ planned: [(reference: MediaReference, identifier: String)], into directory: String,
        deadline: ContinuousClock.Instant
    ) async -> [MediaFetch.Outcome] {
        // One URL, the usual case: no child task to start and collect.
        if planned.count == 1, let item = planned.first {
            return [await fetch.fetch(item.reference, identifier: item.identifier, directory: directory, deadline: deadline)]
        }
        return await withTaskGroup(of: (Int, MediaFetch.Outcome).self) { group in
            for (index, item) in planned.enumerated() {
                group.addTask {
                    (index, await fetch.fetch(item.reference, identifier: item.identifier, directory: directory, deadline: deadline))
                }
            }
            var outcomes = [MediaFetch.Outcome?](repeating: nil, count: planned.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.map { $0 ?? .cancelled }
        }
    }
}
