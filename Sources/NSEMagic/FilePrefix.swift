#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The first bytes of a regular file and its size, read with one open and as few reads as possible.
struct FilePrefix {
    var bytes: [UInt8]
    var size: Int64

    /// Reads at most `limit` bytes from the start of the file at `path`.
    static func load(_ path: String, limit: Int) throws -> FilePrefix {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw MagicError(
                code: code == ENOENT || code == ENOTDIR ? .fileNotFound : .readFailed,
                message: code == ENOENT ? "no file at \(path)" : "cannot open \(path)",
                cause: String(cString: strerror(code))
            )
        }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            throw MagicError(code: .readFailed, message: "cannot stat \(path)", cause: String(cString: strerror(code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw MagicError(code: .notARegularFile, message: "\(path) is not a regular file")
        }

        let size = Int64(info.st_size)
        let wanted = Int(min(Int64(limit), size))
        let bytes = try [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            count = 0
            while count < wanted {
                let n = read(fd, buffer.baseAddress! + count, wanted - count)
                if n == 0 { break }  // the file shrank under us; classify what is there
                if n < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    throw MagicError(code: .readFailed, message: "cannot read \(path)", cause: String(cString: strerror(code)))
                }
                count += n
            }
        }
        return FilePrefix(bytes: bytes, size: size)
    }
}
