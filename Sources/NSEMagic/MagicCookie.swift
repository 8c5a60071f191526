import CMagic

/// One libmagic handle (`magic_t`) with its database loaded. Owns the handle and closes it.
///
/// A cookie is not thread-safe: libmagic keeps per-call state in it. `CookiePool` guarantees
/// that only one thread uses a cookie at a time, which is why it may cross threads.
final class MagicCookie: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Opens a handle and loads the database (`nil`: the system's default, as `file` does).
    init(databasePath: String?) throws {
        guard let handle = magic_open(MAGIC_NONE) else {
            throw MagicError(code: .openFailed, message: "libmagic could not allocate a handle")
        }
        let loaded = databasePath.map { magic_load(handle, $0) } ?? magic_load(handle, nil)
        if loaded != 0 {
            let cause = magic_error(handle).map { String(cString: $0) }
            magic_close(handle)
            throw MagicError(
                code: .loadFailed,
                message: "libmagic could not load its database \(databasePath ?? "(default)"); "
                    + "install libmagic's data (e.g. apt-get install libmagic-mgc) or pass a database path",
                cause: cause
            )
        }
        self.handle = handle
    }

    deinit { magic_close(handle) }

    /// How many bytes libmagic examines at most (`MAGIC_PARAM_BYTES_MAX`).
    var bytesMax: Int {
        var value = 0
        return magic_getparam(handle, MAGIC_PARAM_BYTES_MAX, &value) == 0 ? value : 1 << 20
    }

    /// libmagic's MIME type of some bytes (`file --mime-type`).
    func mimeType(_ bytes: UnsafeRawBufferPointer) throws -> String {
        try run(flags: MAGIC_MIME_TYPE, bytes)
    }

    /// libmagic's description of some bytes (`file -b`).
    func describe(_ bytes: UnsafeRawBufferPointer) throws -> String {
        try run(flags: MAGIC_NONE, bytes)
    }

    private func run(flags: Int32, _ bytes: UnsafeRawBufferPointer) throws -> String {
        magic_setflags(handle, flags)
        // libmagic wants a non-null pointer even for zero bytes.
        var empty: UInt8 = 0
        let answer = withUnsafePointer(to: &empty) { emptyPointer in
            magic_buffer(handle, bytes.baseAddress ?? UnsafeRawPointer(emptyPointer), bytes.count)
        }
        guard let answer else {
            throw MagicError(
                code: .classifyFailed,
                message: "libmagic could not classify \(bytes.count) bytes",
                cause: magic_error(handle).map { String(cString: $0) }
            )
        }
        // The answer lives in the cookie until its next call: copy it now.
        return String(cString: answer)
    }
}
