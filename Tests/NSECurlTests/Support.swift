import NSECurl
import NSETesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch directory, removed with its files at the end of the test.
final class ScratchDirectory: Sendable {
    let path: String

    init() {
        var template = Array("/tmp/nse-curl-test-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit {
        for name in Self.list(path) { unlink("\(path)/\(name)") }
        rmdir(path)
    }

    /// The names in a directory, without `.` and `..`.
    static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

func fileBytes(_ path: String) -> [UInt8] { readFileBytes(path) ?? [] }

/// A started server, a downloader that may reach loopback, and a scratch directory.
struct Fixture {
    let server: TestHTTPServer
    let downloader: Downloader
    let scratch: ScratchDirectory

    static func make(_ configuration: Downloader.Configuration = .init(allowPrivateAddresses: true)) async throws -> Fixture {
        let server = TestHTTPServer()
        try await server.start()
        return Fixture(server: server, downloader: try Downloader(configuration: configuration), scratch: ScratchDirectory())
    }

    func request(
        _ path: String, to name: String = "out", maxBytes: Int64 = 10_000_000,
        within: Duration = .seconds(15),
        classify: (@Sendable ([UInt8]) -> PrefixVerdict)? = nil
    ) -> DownloadRequest {
        DownloadRequest(
            url: path.contains("://") ? path : server.url(path), destination: scratch.file(name),
            deadline: .now + within, maxBytes: maxBytes, classify: classify)
    }

    /// Downloads and returns the error, or nil on success.
    func failure(_ request: DownloadRequest) async -> DownloadError? {
        do {
            _ = try await downloader.download(request)
            return nil
        } catch {
            return error
        }
    }

    /// Ends the downloader and the server; call at the end of each test.
    func finish() {
        downloader.shutdown()
        server.stop()
    }
}

/// An HTML sniff, as a media step would do it with libmagic.
@Sendable func rejectHTML(_ prefix: [UInt8]) -> PrefixVerdict {
    let text = String(decoding: prefix.prefix(64), as: UTF8.self).lowercased()
    return text.contains("<!doctype html") || text.contains("<html") ? .reject("an HTML page, not media") : .limit(10_000_000)
}
