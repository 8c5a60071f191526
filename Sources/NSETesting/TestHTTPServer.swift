import NSECore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests that need a network
/// peer: keep-alive, routes serving bytes or files, and misbehaviours on purpose (slow drip,
/// silence, lying headers, redirects, error pages, a gzip bomb).
///
/// Every connection is bounded in time (5 s idle, 100 requests, a minute of silence at most),
/// and ``stop()`` closes everything and waits for the threads.
public final class TestHTTPServer: Sendable {
    private struct State {
        var routes: [String: Response] = [:]
        var requests: [String: Int] = [:]
        var bodyBytes: [String: Int] = [:]
        var listener: Int32 = -1
        var clients: Set<Int32> = []
        var threads: [JoinableThread] = []
        var stopping = false
        var port = 0
    }

    private let state = Mutex(State())

    /// A server with no routes yet; unknown paths answer 404.
    public init() {}

    /// The port, once started.
    public var port: Int { state.withLock { $0.port } }

    /// `http://127.0.0.1:<port>`, once started.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The absolute URL of a path on this server.
    public func url(_ path: String) -> String { baseURL + path }

    /// Sets what `path` answers (the query string is ignored when matching).
    public func route(_ path: String, _ response: Response) {
        state.withLock { $0.routes[path] = response }
    }

    /// Registers `prefix/1` … `prefix/count`, each redirecting to the next, the last to
    /// `target`. Returns the first path.
    @discardableResult
    public func redirectChain(_ prefix: String, count: Int, to target: String) -> String {
        for step in 1...count {
            route("\(prefix)/\(step)", .redirect(to: step == count ? target : "\(prefix)/\(step + 1)"))
        }
        return "\(prefix)/1"
    }

    /// How many requests arrived for `path`.
    public func requestCount(_ path: String) -> Int { state.withLock { $0.requests[path] ?? 0 } }

    /// How many body bytes the server managed to send for `path`, over all its requests.
    public func bodyBytesSent(_ path: String) -> Int { state.withLock { $0.bodyBytes[path] ?? 0 } }

    /// Starts listening on 127.0.0.1 and an ephemeral port; returns the base URL.
    @discardableResult
    public func start() async throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 512) == 0
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw ServerError("bind", code)
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock {
            $0.listener = fd
            $0.port = port
        }
        guard let thread = JoinableThread({ [self] in acceptLoop(fd) }) else {
            close(fd)
            throw ServerError("thread", errno)
        }
        state.withLock { $0.threads.append(thread) }
        return baseURL
    }

    /// Closes the listener and every connection, and waits for the server's threads.
    public func stop() {
        let (listener, clients) = state.withLock { state in
            state.stopping = true
            return (state.listener, state.clients)
        }
        if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
        for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
        // Connection threads may start while we join; loop until none is left.
        while let threads = state.withLock({ s -> [JoinableThread]? in
            defer { s.threads.removeAll() }
            return s.threads.isEmpty ? nil : s.threads
        }) {
            for thread in threads { thread.join() }
        }
        state.withLock { state in
            if state.listener >= 0 { close(state.listener) }
            state.listener = -1
        }
    }

    deinit { stop() }

    var isStopping: Bool { state.withLock { $0.stopping } }

    private func acceptLoop(_ listener: Int32) {
        while !isStopping {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let accepted = state.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.clients.insert(client)
                return true
            }
            guard accepted else {
                close(client)
                break
            }
            guard let thread = JoinableThread({ [self] in serve(client) }) else {
                state.withLock { _ = $0.clients.remove(client) }
                close(client)
                continue
            }
            state.withLock { $0.threads.append(thread) }
        }
    }

    private func serve(_ fd: Int32) {
        var connection = Connection(fd: fd, server: self)
        for _ in 0..<100 {
            guard !isStopping, let request = connection.readRequest() else { break }
            let path = String(request.target.split(separator: "?", maxSplits: 1).first ?? "")
            let response = state.withLock { state -> Response? in
                state.requests[path, default: 0] += 1
                return state.routes[path]
            }
            let keepOpen = connection.respond(response ?? .notFoundHTML, path: path)
            if !keepOpen || request.wantsClose { break }
        }
        state.withLock { _ = $0.clients.remove(fd) }
        close(fd)
    }

    func countBody(_ path: String, _ bytes: Int) {
        state.withLock { $0.bodyBytes[path, default: 0] += bytes }
    }
}

/// A failure to start the test server.
public struct ServerError: Error, CustomStringConvertible {
    /// What failed, with the system's reason.
    public let description: String
    init(_ what: String, _ code: Int32) {
        description = "test server: \(what) failed: \(String(cString: strerror(code)))"
    }
}
