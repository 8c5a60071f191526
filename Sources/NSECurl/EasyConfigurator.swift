import CCurl

/// Sets the options every transfer shares: the limits that hold inside libcurl, and the
/// callbacks that reach the ``Transfer`` through `Unmanaged`.
enum EasyConfigurator {
    static func configure(
        _ easy: EasyHandle, url: String, configuration: Downloader.Configuration,
        context: UnsafeMutableRawPointer
    ) {
        easy.set(CURLOPT_URL, url)
        easy.set(CURLOPT_NOSIGNAL, 1)  // signals and threads do not mix
        easy.set(CURLOPT_FOLLOWLOCATION, 1)
        easy.set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
        // http and https only, for the first URL and every redirect.
        easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caPath = configuration.caPath { easy.set(CURLOPT_CAINFO, caPath) }
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout))
        // Fewer than 1 byte/s for the stall timeout means the server has stopped sending.
        easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        easy.set(CURLOPT_LOW_SPEED_TIME, max(1, Int(configuration.stallTimeout.components.seconds)))
        // Bytes are counted as they come over the wire: no Accept-Encoding, no decoding, so a
        // compressed bomb stays the size it was sent at.
        easy.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        easy.set(CURLOPT_USERAGENT, configuration.userAgent)
        // The address guard judges the socket connected to; a proxy from the environment
        // would hide the real destination, so only an explicit one is used.
        easy.set(CURLOPT_PROXY, configuration.proxy ?? "")

        easy.set(CURLOPT_WRITEDATA, pointer: context)
        nse_easy_setopt_write_callback(easy.raw, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            return transfer.onBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }
        easy.set(CURLOPT_HEADERDATA, pointer: context)
        nse_easy_setopt_write_callback(easy.raw, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            let line = UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self)
            return transfer.onHeader(line) ? length : 0
        }
        easy.set(CURLOPT_OPENSOCKETDATA, pointer: context)
        nse_easy_setopt_opensocket_callback(easy.raw) { context, _, address in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().openSocket(address!)
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
