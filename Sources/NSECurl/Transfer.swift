import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings a transfer needs from the downloader's configuration.
struct TransferSettings: Sendable {
    var allowPrivateAddresses: Bool
    var classifyPrefixLength: Int
    /// How many bytes `classify` may ask for before only the absolute cap applies.
    var maxPrefixLength: Int
}

/// The transfers that have dropped callers since the engine last looked.
final class PendingDrops {
    var transfers: [Transfer] = []
}

/// One URL being fetched into a file in the work directory, for one or more waiters.
///
/// Lives on the engine thread only; libcurl's callbacks (which run there too, inside
/// `curl_multi_perform`) reach it through `Unmanaged`.
final class Transfer {
    let url: String
    let easy: EasyHandle
    let tempPath: String
    private(set) var fd: Int32
    let settings: TransferSettings
    /// Where the transfer reports that it has callers to resume, so the engine need not scan.
    private let pending: PendingDrops

    /// The callers still waiting for this body.
    var waiters: [Waiter] = []
    /// Callers dropped by a limit inside a callback, to be resumed by the engine afterwards
    /// (never from inside libcurl).
    var dropped: [(Waiter, DownloadError)] = []
    /// Whether more than one caller has been attached; reported as `shared`.
    var servedSeveral = false
    /// Set when the transfer is stopped on purpose; the engine removes it on its next pass.
    var stopReason: DownloadError?

    private(set) var received: Int64 = 0
    private(set) var prefix: [UInt8] = []
    /// Set once bytes past `prefix` have gone by without being kept: it never grows again,
    /// since it must stay the body's first bytes without a gap.
    private var prefixComplete = false
    /// Status of the response whose headers are arriving (redirects have their own).
    private(set) var status = 0
    private var pendingLength: Int64?
    /// Whether the response whose headers are arriving has a `Transfer-Encoding`.
    private var pendingEncoded = false
    /// `Content-Length` of the final (2xx) response, once its headers are complete.
    private(set) var declaredLength: Int64?
    private(set) var headersDone = false
    /// The address the guard refused, with the reason.
    private(set) var refusedAddress: (address: String, reason: String)?

    init(url: String, easy: EasyHandle, tempPath: String, fd: Int32, settings: TransferSettings, pending: PendingDrops) {
        self.pending = pending
        self.url = url
        self.easy = easy
        self.tempPath = tempPath
        self.fd = fd
        self.settings = settings
    }

    /// Closes the file, if still open. Idempotent.
    func closeFile() {
        if fd >= 0 { close(fd); fd = -1 }
    }

    /// Adds a caller, judging it at once against what has already arrived.
    func attach(_ waiter: Waiter) -> DownloadError? {
        if let error = judge(waiter, complete: false) { return error }
        waiter.transfer = self
        servedSeveral = servedSeveral || !waiters.isEmpty
        waiters.append(waiter)
        return nil
    }

    /// Removes a caller (cancelled or past its deadline). Returns whether it was attached.
    @discardableResult
    func detach(_ waiter: Waiter) -> Bool {
        guard let index = waiters.firstIndex(where: { $0 === waiter }) else { return false }
        waiters.remove(at: index)
        waiter.transfer = nil
        return true
    }

    func judge(_ waiter: Waiter, complete: Bool) -> DownloadError? {
        waiter.judge(
            prefix: prefix, complete: complete, received: received,
            declared: headersDone ? declaredLength : nil,
            classifyLength: settings.classifyPrefixLength, maxPrefix: settings.maxPrefixLength)
    }

    /// Judges every waiter; the ones over their limits move to `dropped`.
    /// Returns false when nobody is left to receive the body.
    func judgeAll(complete: Bool) -> Bool {
        waiters.removeAll { waiter in
            guard let error = judge(waiter, complete: complete) else { return false }
            waiter.transfer = nil
            drop(waiter, error)
            return true
        }
        return !waiters.isEmpty
    }

    /// Queues a caller to be resumed with `error` once libcurl has returned.
    func drop(_ waiter: Waiter, _ error: DownloadError) {
        if dropped.isEmpty { pending.transfers.append(self) }
        dropped.append((waiter, error))
    }

    /// Stops the transfer for everyone still waiting, with this error.
    func stopAll(_ error: DownloadError) {
        stopReason = error
        for waiter in waiters {
            waiter.transfer = nil
            drop(waiter, error)
        }
        waiters.removeAll()
    }

    // MARK: libcurl callbacks

    /// One header line, of any response in the redirect chain. Returns false to abort.
    ///
    /// Read as bytes: only the status line, the blank line and `Content-Length` matter, and
    /// making a String of every header line cost more than the rest of a small transfer's work.
    func onHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if line.starts(with: "HTTP/".utf8) {
            // "HTTP/1.1 200 OK": the digits after the first space.
            status = 0
            if let space = line.firstIndex(of: UInt8(ascii: " ")) {
                status = Self.decimal(line[(space + 1)...].prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }).map(Int.init) ?? 0
            }
            pendingLength = nil
            pendingEncoded = false
            return true
        }
        if line.elementsEqual("\r\n".utf8) || line.elementsEqual("\n".utf8) {
            return onHeadersComplete()
        }
        if let value = Self.value(of: "content-length:", in: line) {
            pendingLength = Self.decimal(value)
        } else if Self.value(of: "transfer-encoding:", in: line) != nil {
            // The body is framed by its encoding, and a Content-Length beside it means nothing
            // (RFC 9112, 6.3): libcurl reads on past it, so it must not be trusted as a size.
            pendingEncoded = true
        }
        return true
    }

    /// The value of the header `line` when it is the header `name` (lowercase, with its colon,
    /// matched without regard to case), without surrounding blanks; nil for another header.
    static func value(of name: String, in line: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>>? {
        let name = name.utf8
        guard line.count > name.count, zip(line, name).allSatisfy({ byte, expected in
            byte == expected || ((UInt8(ascii: "a")...UInt8(ascii: "z")).contains(expected) && byte == expected - 0x20)
        }) else { return nil }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let value = line[name.count...].drop(while: isSpace)
        return value.prefix { !isSpace($0) }
    }

    /// The value of a run of ASCII digits; nil when empty, not all digits, or too large.
    static func decimal<Bytes: Collection<UInt8>>(_ digits: Bytes) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private func onHeadersComplete() -> Bool {
        switch status {
        case 100..<200:
            return true  // interim response; the real one follows
        case 200..<300:
            headersDone = true
            declaredLength = pendingEncoded ? nil : pendingLength
            // Refuse before the body when Content-Length already says it is too large.
            return judgeAllOrStop()
        case 400...:
            // Nothing in an error page is worth downloading.
            stopAll(Self.statusError(status, url: url))
            return false
        default:
            return true  // a redirect, which libcurl follows, or a 3xx it will hand over
        }
    }

    /// A piece of the body. Returns false to abort.
    func onBody(_ data: UnsafeRawBufferPointer) -> Bool {
        guard (200..<300).contains(status) else {
            stopAll(Self.statusError(status, url: url))
            return false
        }
        var offset = 0
        while offset < data.count {
            let written = write(fd, data.baseAddress! + offset, data.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                stopAll(DownloadError(
                    .io, "Could not write the body of \(url) to disk: \(reason). Check free space in the download work directory.",
                    url: url))
                return false
            }
            offset += written
        }
        received += Int64(data.count)
        if !prefixComplete, prefix.count < settings.maxPrefixLength {
            if prefix.count >= settings.classifyPrefixLength, waiters.allSatisfy(\.hasVerdict) {
                // Every caller has its verdict: stop keeping bytes. Callers who come later (a
                // late join, the cache) are judged on the bytes kept, which sufficed for these;
                // one whose classify wants more falls back to the absolute limit, and the
                // validation stage checks the whole file by kind anyway. Keeping up to 64 KB
                // of every body cost a copy per chunk and that much memory per cached body.
                prefixComplete = true
            } else {
                prefix.append(contentsOf: data.prefix(settings.maxPrefixLength - prefix.count))
            }
        }
        return judgeAllOrStop()
    }

    /// Judges every waiter; when none is left, marks the transfer stopped so nobody joins it.
    private func judgeAllOrStop() -> Bool {
        if judgeAll(complete: false) { return true }
        stopReason = dropped.last?.1
        return false
    }

    /// Opens the socket for an address curl is about to connect to, unless the guard refuses
    /// it. This sees the resolved address, so DNS cannot smuggle a private one in.
    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        var port: Int32 = 0
        let family = nse_sockaddr_bytes(address, &bytes, &port)
        guard family == AF_INET || family == AF_INET6 else { return CURL_SOCKET_BAD }
        let ip = family == AF_INET ? Array(bytes[0..<4]) : bytes
        if !settings.allowPrivateAddresses, let reason = AddressPolicy.restriction(of: ip) {
            refusedAddress = (AddressPolicy.format(ip), reason)
            return CURL_SOCKET_BAD
        }
        #if canImport(Glibc)
        let type = address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = address.pointee.socktype
        #endif
        return socket(address.pointee.family, type, address.pointee.protocol)
    }

    static func statusError(_ status: Int, url: String) -> DownloadError {
        DownloadError(
            .httpStatus,
            "The server answered \(status) for \(url); only 2xx answers carry media. Check the URL and that the file is published.",
            url: url, httpStatus: status)
    }
}
