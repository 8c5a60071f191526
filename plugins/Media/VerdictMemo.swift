import NSECore
import NSEMagic
import Synchronization

/// Remembers early verdicts by the prefix they were given: the same first bytes (a campaign's
/// image, fetched once and served to thousands of notifications) are judged by libmagic once.
///
/// The verdict is a pure function of the prefix and the limits, which are fixed per memo.
/// Bounded: when full, it starts over.
final class VerdictMemo: Sendable {
    private let sniffer: MagicSniffer
    private let limits: AttachmentLimits
    private let capacity: Int
    private let verdicts = Mutex<[Prefix: EarlyVerdict]>([:])

    init(sniffer: MagicSniffer, limits: AttachmentLimits, capacity: Int = 512) {
        self.sniffer = sniffer
        self.limits = limits
        self.capacity = capacity
    }

    func verdict(_ prefix: [UInt8]) -> EarlyVerdict {
        let key = Prefix(bytes: prefix)
        if let known = verdicts.withLock({ $0[key] }) { return known }
        let verdict = sniffer.earlyVerdict(prefix: prefix, limits: limits)
        verdicts.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[key] = verdict
        }
        return verdict
    }

    /// Bytes as a dictionary key, hashed as one block rather than byte by byte.
    struct Prefix: Hashable {
        let bytes: [UInt8]
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
