#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a fetched body at a caller's destination: a hard link when the file systems allow it,
/// else a copy. The destination never exists half-written: a failed copy is removed.
enum FileDelivery {
    static func deliver(_ source: String, to destination: String, url: String) -> DownloadError? {
        if link(source, destination) == 0 { return nil }
        let linkErrno = errno
        if linkErrno == EEXIST { return exists(destination, url) }
        return copy(source, to: destination, url: url)
    }

    private static func exists(_ destination: String, _ url: String) -> DownloadError {
        DownloadError(.io, "The destination \(destination) for \(url) already exists; downloads never overwrite a file.", url: url)
    }

    private static func failure(_ what: String, _ path: String, _ url: String) -> DownloadError {
        let reason = String(cString: strerror(errno))
        return DownloadError(.io, "Could not \(what) \(path) while delivering \(url): \(reason).", url: url)
    }

    private static func copy(_ source: String, to destination: String, url: String) -> DownloadError? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return failure("open", source, url) }
        defer { close(input) }
        let output = open(destination, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            return errno == EEXIST ? exists(destination, url) : failure("create", destination, url)
        }
        var error: DownloadError?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        copying: while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                error = failure("read", source, url)
                break
            }
            var offset = 0
            while offset < count {
                let written = write(output, buffer.baseAddress! + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    error = failure("write", destination, url)
                    break copying
                }
                offset += written
            }
        }
        if close(output) != 0, error == nil { error = failure("write", destination, url) }
        if error != nil { unlink(destination) }
        return error
    }
}
