import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelModels
import ReelStorage

/// Turns one published file (or a few bytes made in memory) into an HTTP response: MIME type,
/// strong ETag and `If-None-Match`, single byte ranges, HEAD, `nosniff`. Files are streamed in
/// chunks by Hummingbird's `FileIO` (NIO's file system on its thread pool), never loaded whole.
///
/// Ranges (RFC 9110 §14): `bytes=a-b`, `bytes=a-` and `bytes=-n` get a 206 with
/// `Content-Range`; a first position at or past the end (or `-0`, or any range of an empty
/// file) is a 416 with `Content-Range: bytes */size`. A syntactically invalid header, another
/// unit, or a request for several ranges is ignored and answered with the whole file (200):
/// ignoring `Range` is always allowed, players never ask for several ranges, and a
/// multipart/byteranges body is not worth its complexity here. `If-Range` that does not match
/// the current ETag also yields the whole file.
struct MediaFileResponder: Sendable {
    let fileIO: FileIO
    /// The most of a stored (S3) file held in memory per response: larger files and ranges are
    /// fetched by ranged GETs of this size as the client reads.
    let storedChunkBytes: Int

    init(fileIO: FileIO = FileIO(), storedChunkBytes: Int = StoredObjectStream.defaultChunkBytes) {
        self.fileIO = fileIO
        self.storedChunkBytes = max(1, storedChunkBytes)
    }

    /// Size and modification time of a regular file, from `lstat`: a symbolic link (or a
    /// directory, a socket…) is not served even if its name is listed.
    struct FileFacts: Sendable, Equatable {
        var size: Int
        var modified: Date
    }

    static func facts(of url: URL) -> FileFacts? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue, size >= 0
        else { return nil }
        let modified = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        return FileFacts(size: size, modified: modified)
    }

    /// Streams `url` (already known to be a listed, regular file) with the given caching policy.
    func file(
        _ url: URL, facts: FileFacts, contentType: String, cacheControl: String, etag: String,
        request: Request, context: some RequestContext, extraHeaders: HTTPFields = [:]
    ) async throws -> Response {
        var headers = Self.baseHeaders(contentType: contentType, cacheControl: cacheControl, etag: etag)
        headers.append(contentsOf: extraHeaders)
        switch Self.decide(request: request, size: facts.size, etag: etag) {
        case .notModified:
            return Self.notModified(headers)
        case .unsatisfiable:
            return Self.unsatisfiable(size: facts.size, headers: headers)
        case .full:
            if request.method == .head || facts.size == 0 {
                headers[.contentLength] = String(facts.size)
                return Response(status: .ok, headers: headers, body: ResponseBody())
            }
            // The streamed body states its own length (FileIO stats the file it opens).
            let body = try await fileIO.loadFile(path: url.path, context: context)
            return Response(status: .ok, headers: headers, body: body)
        case .partial(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(facts.size)"
            if request.method == .head {
                headers[.contentLength] = String(range.count)
                return Response(status: .partialContent, headers: headers, body: ResponseBody())
            }
            let body = try await fileIO.loadFile(path: url.path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
    }

    /// An object from remote storage (S3): `info` answers HEAD, `If-None-Match` and `Range`
    /// without fetching; the bytes (whole, or the one range) are fetched only for a GET that
    /// needs them. Objects are immutable under a published post, so `info` and the bytes agree.
    func stored(
        postKey: String, name: String, info: StoredObjectInfo, storage: any MediaStorage, contentType: String, cacheControl: String,
        etag: String, request: Request
    ) async throws -> Response {
        var headers = Self.baseHeaders(contentType: contentType, cacheControl: cacheControl, etag: etag)
        let decision = Self.decide(request: request, size: info.size, etag: etag)
        var status = HTTPResponse.Status.ok
        var range: ClosedRange<Int>? = nil
        switch decision {
        case .notModified:
            return Self.notModified(headers)
        case .unsatisfiable:
            return Self.unsatisfiable(size: info.size, headers: headers)
        case .full:
            headers[.contentLength] = String(info.size)
        case .partial(let part):
            status = .partialContent
            range = part
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(info.size)"
            headers[.contentLength] = String(part.count)
        }
        if request.method == .head || info.size == 0 {
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        let span = range ?? 0...(info.size - 1)
        let stream = stream(postKey: postKey, name: name, storage: storage)
        // Gone between the look-up and now (removed meanwhile): as if it had never been there.
        guard let first = try await stream.firstChunk(of: span, size: info.size) else { throw APIError.notFound("media") }
        return Response(status: status, headers: headers, body: stream.body(of: span, first: first))
    }

    /// The whole of a stored file for a plain GET, from its first chunk (fetched without a
    /// look-up, which is what told its size).
    func stored(
        leading first: StoredObject, stream: StoredObjectStream, contentType: String, cacheControl: String, etag: String
    ) -> Response {
        var headers = Self.baseHeaders(contentType: contentType, cacheControl: cacheControl, etag: etag)
        headers[.contentLength] = String(first.size)
        return Response(status: .ok, headers: headers, body: stream.body(of: 0...(first.size - 1), first: first))
    }

    func stream(postKey: String, name: String, storage: any MediaStorage) -> StoredObjectStream {
        StoredObjectStream(postKey: postKey, name: name, storage: storage, chunkBytes: storedChunkBytes)
    }

    /// Bytes made in memory (a playlist rewritten for its host), with the same conditional
    /// and range handling as a file.
    func bytes(
        _ data: Data, contentType: String, cacheControl: String, etag: String, request: Request,
        extraHeaders: HTTPFields = [:]
    ) -> Response {
        var headers = Self.baseHeaders(contentType: contentType, cacheControl: cacheControl, etag: etag)
        headers.append(contentsOf: extraHeaders)
        switch Self.decide(request: request, size: data.count, etag: etag) {
        case .notModified:
            return Self.notModified(headers)
        case .unsatisfiable:
            return Self.unsatisfiable(size: data.count, headers: headers)
        case .full:
            headers[.contentLength] = String(data.count)
            let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: data))
            return Response(status: .ok, headers: headers, body: body)
        case .partial(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(data.count)"
            headers[.contentLength] = String(range.count)
            let slice = data[data.startIndex + range.lowerBound...data.startIndex + range.upperBound]
            let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: slice))
            return Response(status: .partialContent, headers: headers, body: body)
        }
    }

    /// An AES-128 key: never cached anywhere, never ranged, no validators.
    static func key(_ key: Data, request: Request) -> Response {
        let headers: HTTPFields = [
            .contentType: MediaType.octetStream,
            .cacheControl: "private, no-store",
            .contentLength: String(key.count),
            .xContentTypeOptions: "nosniff",
        ]
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: key))
        return Response(status: .ok, headers: headers, body: body)
    }

    // MARK: - Decisions

    enum Decision: Equatable {
        case full
        case partial(ClosedRange<Int>)
        case notModified
        case unsatisfiable
    }

    static func decide(request: Request, size: Int, etag: String) -> Decision {
        let noneMatch = request.headers[values: .ifNoneMatch]
        if !noneMatch.isEmpty, ETag.noneMatchHits(noneMatch.joined(separator: ","), etag: etag) {
            return .notModified
        }
        // Ranges only make sense for GET and HEAD; both routes here are nothing else.
        guard let rangeHeader = request.headers[.range] else { return .full }
        if let ifRange = request.headers[.ifRange], ifRange.trimmingCharacters(in: .whitespaces) != etag {
            return .full
        }
        switch ByteRange.parse(rangeHeader, size: size) {
        case .ignore: return .full
        case .unsatisfiable: return .unsatisfiable
        case .range(let range): return .partial(range)
        }
    }

    static func baseHeaders(contentType: String, cacheControl: String, etag: String) -> HTTPFields {
        [
            .contentType: contentType,
            .cacheControl: cacheControl,
            .eTag: etag,
            .acceptRanges: "bytes",
            .xContentTypeOptions: "nosniff",
        ]
    }

    static func notModified(_ headers: HTTPFields) -> Response {
        // A 304 carries the validators and caching headers, never a body or its type/length.
        var headers = headers
        headers[.contentType] = nil
        headers[.acceptRanges] = nil
        return Response(status: .notModified, headers: headers, body: ResponseBody())
    }

    static func unsatisfiable(size: Int, headers: HTTPFields) -> Response {
        let body = (try? JSONEncoder().encode(APIErrorBody(code: APIError.rangeNotSatisfiable.code, message: APIError.rangeNotSatisfiable.message))) ?? Data()
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        fields[.eTag] = nil
        fields[.contentRange] = "bytes */\(size)"
        fields[.contentLength] = String(body.count)
        return Response(status: .rangeNotSatisfiable, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

// MARK: - Range

/// One `Range: bytes=…` header against a representation of `size` bytes.
enum ByteRange: Equatable {
    /// Serve the whole representation (no usable range: other unit, bad syntax, several ranges).
    case ignore
    case unsatisfiable
    case range(ClosedRange<Int>)

    static func parse(_ header: String, size: Int) -> ByteRange {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 200, trimmed.lowercased().hasPrefix("bytes=") else { return .ignore }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        // Several ranges: answered with the whole file (see `MediaFileResponder`).
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignore }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard first.isEmpty || isDigits(first), last.isEmpty || isDigits(last), !(first.isEmpty && last.isEmpty) else {
            return .ignore
        }
        if first.isEmpty {
            // Suffix: the last n bytes.
            guard let count = Int(last) else { return .ignore }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - count)...(size - 1))
        }
        guard let start = Int(first) else {
            // A first position too large for Int is certainly past the end.
            return .unsatisfiable
        }
        var end = size - 1
        if !last.isEmpty {
            // An unparseably large last position simply means "to the end".
            if let value = Int(last) {
                guard value >= start else { return .ignore }
                end = min(value, size - 1)
            }
        }
        guard start < size else { return .unsatisfiable }
        return .range(start...end)
    }

    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

// MARK: - ETag

enum ETag {
    /// A strong validator that changes whenever the bytes can have changed: the post, its source
    /// hash, the file name, its size and modification time (and anything else the caller mixes
    /// in, e.g. the host a playlist was rewritten for).
    static func strong(_ parts: [String]) -> String {
        let digest = SHA256.hash(data: Data(parts.joined(separator: "|").utf8))
        return "\"" + Hex.lowercase(digest.prefix(16)) + "\""
    }

    static func parts(postID: Int64, contentHash: String, name: String, facts: MediaFileResponder.FileFacts) -> [String] {
        let nanos = Int64((facts.modified.timeIntervalSince1970 * 1_000_000_000).rounded())
        return ["v1", String(postID), contentHash, name, String(facts.size), String(nanos)]
    }

    /// The same for an object in remote storage: its size and the storage's own ETag stand in
    /// for the modification time.
    static func parts(postID: Int64, contentHash: String, name: String, stored: StoredObjectInfo) -> [String] {
        ["v1", String(postID), contentHash, name, String(stored.size), "stored:" + stored.etag]
    }

    /// `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored.
    static func noneMatchHits(_ header: String, etag: String) -> Bool {
        let ours = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            if tag == ours { return true }
        }
        return false
    }
}

// MARK: - Names

/// The last line of defence on top of "only listed names are served": a listed name must also
/// look like something our pipeline writes (`720p/seg_00000.m4s`), so a damaged database row
/// can never become a path outside the post's folder.
enum MediaName {
    static let maxLength = 255

    static func isSafeRelativePath(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maxLength else { return false }
        for component in name.split(separator: "/", omittingEmptySubsequences: false) {
            guard !component.isEmpty, component != ".", component != "..", !component.hasPrefix("."),
                  component.utf8.allSatisfy({ isAllowed($0) })
            else { return false }
        }
        return true
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// A decimal post id exactly as `String(id)` writes it (no sign, no leading zeros).
    static func postID(_ text: String?) -> Int64? {
        guard let text, text.utf8.count <= 19, let id = Int64(text), id > 0, String(id) == text else { return nil }
        return id
    }

    /// The raw, undecoded rest of the path caught by `{file+}`. Percent-escapes are *not*
    /// decoded: every listed name is plain ASCII that no client escapes, so `%2e%2e` or `%2f`
    /// can only ever fail to match. Empty components (`720p//index.m3u8`) and a trailing slash
    /// are kept so they fail to match too.
    static func catchAll(_ request: Request, context: some RequestContext) -> String? {
        guard let raw = context.parameters.get(String(Parameters.recursiveCaptureKey)) else { return nil }
        let path = request.uri.path
        guard !path.hasSuffix("/") || raw.hasSuffix("/") else { return raw + "/" }
        return raw
    }

    /// A file is served only if, with every symbolic link resolved, it is still inside the
    /// post's folder (`name` has `depth` components below that folder).
    static func isContained(_ file: URL, depth: Int) -> Bool {
        var folder = file
        for _ in 0..<depth { folder = folder.deletingLastPathComponent() }
        let resolvedFolder = folder.resolvingSymlinksInPath().standardizedFileURL.path
        let resolvedFile = file.resolvingSymlinksInPath().standardizedFileURL.path
        return resolvedFile.hasPrefix(resolvedFolder.hasSuffix("/") ? resolvedFolder : resolvedFolder + "/")
    }
}

extension HTTPField.Name {
    fileprivate static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
