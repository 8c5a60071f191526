import CCurl

/// libcurl's global state, set up once per process before any handle exists.
enum CurlGlobal {
    /// The result of `curl_global_init`; evaluated once, thread-safely, on first use.
    static let initialized: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// libcurl's text for a result code.
    static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}

/// Owns one libcurl easy handle and frees it on release.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// curl writes its detailed error text here; it must outlive the handle's transfers.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        nse_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    @discardableResult
    func set(_ option: CURLoption, _ value: Int) -> CURLcode { nse_easy_setopt_long(raw, option, value) }
    @discardableResult
    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        // curl copies string options (since 7.17), so a temporary C string is enough.
        value.withCString { nse_easy_setopt_string(raw, option, $0) }
    }
    @discardableResult
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> CURLcode {
        nse_easy_setopt_pointer(raw, option, pointer)
    }

    func int(_ info: CURLINFO) -> Int? {
        var value = 0
        return nse_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : nil
    }
    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard nse_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// The detailed text of the last failure, if curl wrote one.
    var errorText: String { String(cString: errorBuffer) }
}

/// Owns one libcurl multi handle and frees it on release.
final class MultiHandle {
    let raw: UnsafeMutableRawPointer

    init?() {
        guard let raw = curl_multi_init() else { return nil }
        self.raw = raw
    }

    deinit { curl_multi_cleanup(raw) }

    @discardableResult
    func set(_ option: CURLMoption, _ value: Int) -> CURLMcode { nse_multi_setopt_long(raw, option, value) }

    /// Interrupts a `curl_multi_poll` in progress. Safe from any thread.
    func wakeup() { curl_multi_wakeup(raw) }
}
