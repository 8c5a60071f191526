import NSECore

/// What `nse sniff FILE…` says about one file: its type by the bytes, and whether iOS would
/// take it as an attachment (type and size).
public struct SniffReport: Sendable, Hashable {
    /// The file as it was named on the command line.
    public var file: String
    /// The kind, when the type is accepted.
    public var kind: AttachmentKind?
    /// The UTI, when the type is accepted.
    public var uti: String?
    /// The MIME type libmagic reports, when the file could be read.
    public var mime: String?
    /// The size, when the file could be read.
    public var bytes: Int64?
    /// True when iOS would accept the file as an attachment.
    public var accepted: Bool
    /// Why not, when not.
    public var reason: Rejection.Reason?
    /// What happened, when the file is refused.
    public var detail: String?
    /// libmagic's description, when the file could be read.
    public var description: String?

    /// Makes a report from its parts.
    public init(
        file: String, kind: AttachmentKind? = nil, uti: String? = nil, mime: String? = nil, bytes: Int64? = nil,
        accepted: Bool, reason: Rejection.Reason? = nil, detail: String? = nil, description: String? = nil
    ) {
        self.file = file
        self.kind = kind
        self.uti = uti
        self.mime = mime
        self.bytes = bytes
        self.accepted = accepted
        self.reason = reason
        self.detail = detail
        self.description = description
    }

    /// One line for a person:
    /// `photo.bin  image  public.png  image/png  310 bytes  accepted`, or
    /// `page.jpg  -  -  text/html  161 bytes  rejected: unrecognized-type (HTML document, ASCII text)`.
    public var line: String {
        Self.columns(self).joined(separator: "  ")
    }

    /// Lines for several reports, their columns aligned.
    public static func lines(_ reports: [SniffReport]) -> [String] {
        let rows = reports.map(columns)
        guard let width = rows.map(\.count).max() else { return [] }
        let widths = (0..<width).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }

    private static func columns(_ report: SniffReport) -> [String] {
        let verdict: String
        if report.accepted {
            verdict = "accepted"
        } else {
            // libmagic's words say best what an unrecognized file is; other reasons have their detail.
            let why = report.reason == .unrecognizedType ? report.description : report.detail
            verdict = "rejected: \(report.reason?.rawValue ?? "unknown")" + (why.map { " (\($0))" } ?? "")
        }
        return [
            report.file, report.kind?.rawValue ?? "-", report.uti ?? "-", report.mime ?? "-",
            report.bytes.map { "\($0) bytes" } ?? "-", verdict,
        ]
    }

    /// The report as a JSON value, keys in a fixed order:
    /// `{"file":…,"kind":…,"uti":…,"mime":…,"bytes":…,"accepted":…,"reason":…,"detail":…,"description":…}`.
    public var json: JSON {
        func string(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
        return .object(JSONObject(members: [
            .init(key: "file", value: .string(file)),
            .init(key: "kind", value: string(kind?.rawValue)),
            .init(key: "uti", value: string(uti)),
            .init(key: "mime", value: string(mime)),
            .init(key: "bytes", value: bytes.map { .number(JSONNumber($0)) } ?? .null),
            .init(key: "accepted", value: .bool(accepted)),
            .init(key: "reason", value: string(reason?.rawValue)),
            .init(key: "detail", value: string(detail)),
            .init(key: "description", value: string(description)),
        ]))
    }

    /// The report as one line of compact JSON (for JSONL output).
    public var jsonLine: String { json.text() }
}

extension MagicSniffer {
    /// Classifies one file and judges it by iOS's rules and `limits`. Never throws: an unreadable
    /// file is a report too (`invalid-url`). `describe: .whenNeeded` suits the one-line form,
    /// which shows libmagic's description only for refused files.
    public func report(file path: String, limits: AttachmentLimits = .ios, describe: DescriptionPolicy = .always) -> SniffReport {
        let result: SniffResult
        do {
            result = try sniff(file: path, describe: describe)
        } catch {
            return SniffReport(file: path, accepted: false, reason: .invalidURL, detail: "\(error)")
        }
        var report = SniffReport(
            file: path, kind: result.kind, uti: result.uti, mime: result.mime, bytes: result.byteCount,
            accepted: false, description: result.description)
        if result.byteCount == 0 {
            report.reason = .invalidFileSize
            report.detail = "the file is empty (0 bytes)"
        } else if let type = result.type {
            if result.byteCount > limits[type.kind] {
                report.reason = .invalidFileSize
                report.detail = "\(type.kind): \(result.byteCount) > \(limits[type.kind]) bytes"
            } else {
                report.accepted = true
            }
        } else {
            report.reason = .unrecognizedType
            report.detail = Self.unrecognizedDetail(result)
        }
        return report
    }

    /// Reports on many files, classifying as many at once as the pool allows; in the given order.
    public func reports(
        files: [String], limits: AttachmentLimits = .ios, describe: DescriptionPolicy = .always
    ) async -> [SniffReport] {
        await withTaskGroup(of: (Int, SniffReport).self) { group in
            // A bounded window, so thousands of files do not become thousands of waiting tasks.
            let window = max(1, poolSize)
            var next = 0
            var reports = [SniffReport?](repeating: nil, count: files.count)
            func submit() {
                guard next < files.count else { return }
                let index = next
                next += 1
                group.addTask { (index, self.report(file: files[index], limits: limits, describe: describe)) }
            }
            for _ in 0..<window { submit() }
            while let (index, report) = await group.next() {
                reports[index] = report
                submit()
            }
            return reports.map { $0! }
        }
    }
}
