#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection of ``TestHTTPServer``: reads request heads, writes responses.
struct Connection {
    struct Request {
        var target: String
        var wantsClose: Bool
    }

    let fd: Int32
    let server: TestHTTPServer
    private var buffered: [UInt8] = []

    init(fd: Int32, server: TestHTTPServer) {
        self.fd = fd
        self.server = server
    }

    /// Reads one request head (bodies are not expected). Nil on close, timeout or garbage.
    mutating func readRequest() -> Request? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffered.count < 16 * 1024 {
            if let range = buffered.firstRange(of: end) {
                let head = String(decoding: buffered[..<range.lowerBound], as: UTF8.self)
                buffered.removeSubrange(..<range.upperBound)
                let lines = head.split(separator: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                guard parts.count >= 2 else { return nil }
                let close = lines.dropFirst().contains { $0.lowercased().hasPrefix("connection:") && $0.lowercased().contains("close") }
                return Request(target: String(parts[1]), wantsClose: close || parts.last == "HTTP/1.0")
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffered += chunk[..<count]
        }
        return nil
    }

    /// Writes the response; returns whether the connection may serve another request.
    func respond(_ response: TestHTTPServer.Response, path: String) -> Bool {
        switch response {
        case .bytes(let bytes, let type, let status):
            return head(status, ["Content-Type": type, "Content-Length": "\(bytes.count)"]) && body(bytes, path)

        case .file(let file, let type):
            guard let bytes = readFileBytes(file) else { return respond(.notFoundHTML, path: path) }
            return head(200, ["Content-Type": type, "Content-Length": "\(bytes.count)"]) && body(bytes, path)

        case .drip(let total, let chunk, let every, let type, let declared):
            guard head(200, ["Content-Type": type, "Content-Length": "\(declared ?? Int64(total))"]) else { return false }
            var sent = 0
            while sent < total {
                let size = min(max(1, chunk), total - sent)
                guard !server.isStopping, body(Self.pattern(from: sent, count: size), path) else { return false }
                sent += size
                if sent < total { Self.pause(every) }
            }
            return declared == nil || declared == Int64(total)

        case .hang:
            // Hold the connection without answering, until the server stops or a minute passes.
            for _ in 0..<3000 where !server.isStopping { Self.pause(.milliseconds(20)) }
            return false

        case .lyingLength(let bytes, let declared, let type):
            _ = head(200, ["Content-Type": type, "Content-Length": "\(declared)"]) && body(bytes, path)
            return false  // the framing is broken; close

        case .unsized(let total, let type, let chunked, let prefix, let falseLength):
            var headers = ["Content-Type": type]
            if chunked { headers["Transfer-Encoding"] = "chunked" } else { headers["Connection"] = "close" }
            if chunked, let falseLength { headers["Content-Length"] = "\(falseLength)" }
            guard head(200, headers) else { return false }
            var sent = 0
            while sent < total, !server.isStopping {
                let size = min(16 * 1024, total - sent)
                var piece = Self.pattern(from: sent, count: size)
                if sent < prefix.count {
                    for offset in sent..<min(sent + size, prefix.count) { piece[offset - sent] = prefix[offset] }
                }
                let ok = chunked
                    ? send(Array((String(size, radix: 16) + "\r\n").utf8)) && body(piece, path) && send(Array("\r\n".utf8))
                    : body(piece, path)
                guard ok else { return false }
                sent += size
            }
            return chunked && send(Array("0\r\n\r\n".utf8))

        case .redirect(let location, let status):
            return head(status, ["Location": location, "Content-Length": "0"])

        case .notFoundHTML:
            let page = Array("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>\n".utf8)
            return head(404, ["Content-Type": "text/html; charset=utf-8", "Content-Length": "\(page.count)"]) && body(page, path)

        case .gzipBomb(let size, let type):
            let bytes = GzipBomb.zeros(size)
            return head(200, ["Content-Type": type, "Content-Encoding": "gzip", "Content-Length": "\(bytes.count)"])
                && body(bytes, path)
        }
    }

    private func head(_ status: Int, _ headers: [String: String]) -> Bool {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return send(Array((text + "\r\n").utf8))
    }

    private func body(_ bytes: [UInt8], _ path: String) -> Bool {
        var offset = 0
        defer { server.countBody(path, offset) }
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { sendBytes(fd, $0) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { sendBytes(fd, $0) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func pattern(from offset: Int, count: Int) -> [UInt8] {
        (offset..<(offset + count)).map(TestHTTPServer.patternByte)
    }

    private static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 404: "Not Found"
        default: "Status"
        }
    }
}

/// `send` without SIGPIPE when the peer has gone.
private func sendBytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
    Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
    #endif
}
