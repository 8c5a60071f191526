#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NSECore

/// The checks iOS makes on one attachment, by its bytes, inside one scratch directory.
///
/// Kept apart from `MagicAttachmentValidator` so that it can be used without a pipeline:
/// it is a pure function of the attachment, the limits and the directory (plus the disk).
struct AttachmentCheck {
    let sniffer: MagicSniffer
    let limits: AttachmentLimits
    /// The scratch directory as the caller named it.
    let givenScratch: String
    /// `givenScratch` with symbolic links resolved, once a file needs it (nil inside: it does
    /// not exist).
    private var resolvedScratch: String??

    init(sniffer: MagicSniffer, limits: AttachmentLimits, scratch: String) {
        self.sniffer = sniffer
        self.limits = limits
        givenScratch = scratch
    }

    enum Outcome {
        case accepted(Attachment, warnings: [String])
        case rejected(Rejection, warnings: [String])
    }

    mutating func run(_ attachment: Attachment) -> Outcome {
        var warnings: [String] = []
        let label = "attachment \"\(attachment.identifier)\""
        func reject(_ reason: Rejection.Reason, _ detail: String) -> Outcome {
            .rejected(
                Rejection(identifier: attachment.identifier, source: attachment.source ?? attachment.file,
                          reason: reason, detail: detail),
                warnings: warnings)
        }

        // Nothing outside the scratch directory, even through a symbolic link.
        let path = attachment.file
        let directory = Self.directory(of: path)
        let name = Self.lastComponent(of: path)
        let sniffed: String
        let identity: ReadOnlyFileMemo.Identity??
        var status = stat()
        if directory == givenScratch, name != "", name != ".", name != "..",
           lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            // The usual file: a regular file (not a link) named directly in the scratch
            // directory as given. Its resolved path is the directory's resolved path plus its
            // name, so it is inside whatever the directory resolves to: nothing to resolve.
            sniffed = path
            identity = .some(ReadOnlyFileMemo.identity(of: status, describe: .whenNeeded))
        } else {
            guard let scratch = resolveScratch() else {
                return reject(.invalidURL, "the scratch directory \(givenScratch) does not exist")
            }
            guard let realFile = realPath(path) else {
                return reject(.invalidURL, "no file at \(path)")
            }
            guard Self.isInside(realFile, scratch),
                  let realDirectory = directory == givenScratch ? scratch : realPath(directory),
                  realDirectory == scratch || Self.isInside(realDirectory, scratch)
            else {
                return reject(.invalidURL, "\(path) is outside the notification's scratch directory \(scratch)")
            }
            sniffed = realFile
            identity = nil
        }

        let result: SniffResult
        do {
            result = try sniffer.sniff(file: sniffed, identity: identity, describe: .whenNeeded)
        } catch let error as MagicError {
            return reject(.invalidURL, error.description)
        } catch {
            return reject(.invalidURL, "cannot read \(path): \(error)")
        }

        if result.byteCount == 0 {
            return reject(.invalidFileSize, "the file is empty (0 bytes)")
        }
        guard let type = result.type else {
            // A download refused here (one too small to be judged while it arrived) gets the
            // same advice as one the downloader stopped.
            var detail = MagicSniffer.unrecognizedDetail(result)
            if let source = attachment.source, source.hasPrefix("https://") || source.hasPrefix("http://") {
                detail += " Check that \(source) points at the media file itself."
            }
            return reject(.unrecognizedType, detail)
        }
        let limit = limits[type.kind]
        if result.byteCount > limit {
            return reject(.invalidFileSize, "\(type.kind): \(result.byteCount) > \(limit) bytes")
        }

        var accepted = attachment
        accepted.kind = type.kind
        accepted.uti = type.uti
        accepted.mime = result.mime
        accepted.byteCount = result.byteCount

        // Hints are checked against the bytes, never trusted.
        if let hint = attachment.options.typeHint, hint != type.uti {
            warnings.append("\(label): type hint \(hint) disagrees with the bytes (\(type.uti)); the hint is replaced")
            accepted.options.typeHint = type.uti
        }
        if let claimed = attachment.mime, claimed != "application/octet-stream",
           AttachmentRules.type(mime: claimed, description: result.description ?? "")?.uti != type.uti {
            warnings.append("\(label): declared as \(claimed), the bytes are \(result.mime) (\(type.uti))")
        }

        // iOS reads the type from the extension when there is no hint: make it the right one.
        let currentExtension = Self.fileExtension(of: name)
        if currentExtension.map({ AttachmentRules.fileExtension($0, matches: type) }) != true {
            switch moveAside(path, in: directory, to: safeFileName(attachment.identifier), extension: type.fileExtension) {
            case .success(let renamed):
                let newName = Self.lastComponent(of: renamed)
                // `.bin` says "type unknown" (a download whose URL had no extension): no claim to contradict.
                if let currentExtension, currentExtension.lowercased() != "bin" {
                    warnings.append("\(label): the file name says .\(currentExtension), the bytes are \(type.uti); renamed to \(newName)")
                }
                accepted.file = renamed
            case .failure(let reason):
                warnings.append("\(label): the bytes are \(type.uti) but the file \(name) could not be renamed (\(reason))")
            }
        }
        return .accepted(accepted, warnings: warnings)
    }

    struct RenameFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Renames `path` to `<stem>.<ext>` in the same directory, or `<stem>-2.<ext>`, … if taken.
    private func moveAside(_ path: String, in directory: String, to stem: String, extension ext: String) -> Result<String, RenameFailure> {
        for attempt in 1...100 {
            let name = attempt == 1 ? "\(stem).\(ext)" : "\(stem)-\(attempt).\(ext)"
            let target = directory + "/" + name
            if target == path { return .success(path) }
            // Never replace another file: link(2) fails if the target exists, then drop the old name.
            if link(path, target) == 0 {
                unlink(path)
                return .success(target)
            }
            let code = errno
            if code == EEXIST { continue }
            // Some file systems have no hard links; fall back to a checked rename.
            if code == EPERM || code == ENOTSUP || code == EXDEV, access(target, F_OK) != 0,
               rename(path, target) == 0 {
                return .success(target)
            }
            return .failure(RenameFailure(description: String(cString: strerror(code))))
        }
        return .failure(RenameFailure(description: "too many files named \(stem)"))
    }

    private mutating func resolveScratch() -> String? {
        if let resolvedScratch { return resolvedScratch }
        let resolved = realPath(givenScratch)
        resolvedScratch = .some(resolved)
        return resolved
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isInside(_ path: String, _ directory: String) -> Bool {
        path.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
    }

    // Searched as UTF-8 bytes: `/` and `.` are ASCII, so the indexes fall between characters,
    // and a byte search is far cheaper than a search by `Character`.

    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
    }

    static func fileExtension(of name: String) -> String? {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return nil }
        let ext = name[name.utf8.index(after: dot)...]
        return ext.isEmpty ? nil : String(ext)
    }
}
