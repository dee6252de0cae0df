import Foundation

/// Where published media lives. The embedded implementation is a local folder; an
/// S3-compatible bucket sits behind the same protocol (publish = upload then flip the row).
public protocol MediaStorage: Sendable {
    /// Makes a fully staged post folder visible under `postKey`, all at once: readers see either
    /// nothing or every file. Replaces leftovers of an earlier, unfinished publish.
    func publish(stagedDirectory: URL, postKey: String) async throws
    func remove(postKey: String) async throws
    func postKeys() async throws -> [String]
    /// A local file for serving with zero copies, when the storage is local.
    func localFile(postKey: String, relativePath: String) -> URL?
    /// Size and validator of a published file, or nil when the file (or its post) is not there.
    /// Lets a reader answer HEAD, `If-None-Match` and a `Range` before fetching any bytes.
    func objectInfo(postKey: String, relativePath: String) async throws -> StoredObjectInfo?
    /// A published file's bytes (all, or `range` of them, inclusive), so a node without the
    /// files can serve them; nil when the file (or its post) is not there, or `range` starts at
    /// or past its end. A range reaching past the end gets the bytes up to the end (as an HTTP
    /// range does), so a reader can ask for a first chunk before it knows the size.
    func object(postKey: String, relativePath: String, range: ClosedRange<Int>?) async throws -> StoredObject?
}

/// An error of a storage backend other than the local disk (a bucket that refused a request or
/// could not be reached). The server answers a refusal like a disk fault: 500 `storage_error`,
/// with the details in the log only; a backend that cannot be reached at all (`isUnreachable`)
/// is a 503 with Retry-After, as a database that does not answer is: a client retries it.
public protocol StorageFault: Error {
    var isUnreachable: Bool { get }
}

extension StorageFault {
    public var isUnreachable: Bool { false }
}

/// What a storage knows about a file without reading it. `etag` is opaque and changes whenever
/// the bytes can have changed.
public struct StoredObjectInfo: Sendable, Equatable {
    public var size: Int
    public var etag: String

    public init(size: Int, etag: String) {
        self.size = size
        self.etag = etag
    }
}

/// Bytes of a stored file: all of it, or `range` of it.
public struct StoredObject: Sendable, Equatable {
    public var bytes: Data
    /// The whole file's size.
    public var size: Int
    public var etag: String
    /// The part `bytes` holds; nil for the whole file.
    public var range: ClosedRange<Int>?

    public init(bytes: Data, size: Int, etag: String, range: ClosedRange<Int>?) {
        self.bytes = bytes
        self.size = size
        self.etag = etag
        self.range = range
    }

    public var info: StoredObjectInfo { StoredObjectInfo(size: size, etag: etag) }
}

/// Where posts' source files (their mezzanines) are kept, by the path the store records
/// (`sources/ab12….mp4`): the data folder's `sources/` (`SourceStore`), or `sources/` in the
/// bucket (`S3SourceStorage`), so a worker on any node can transcode a post imported on another.
public protocol SourceStorage: Sendable {
    /// Keeps `file` as a post's source named by its content hash (kept once: the same content
    /// kept again returns the same path). Returns the path to record.
    func keep(_ file: URL, contentHash: String) async throws -> String
    /// Keeps validated WebVTT for language `tag` (already a safe file-name part); returns its path.
    func keepSubtitles(_ vtt: Data, tag: String) async throws -> String
    /// A local file with a kept source's bytes, for ffmpeg: the kept file itself when it is on
    /// this disk, else a copy fetched into `folder` (the job's work folder, deleted with it).
    /// Nil when the source is missing.
    func localCopy(of relativePath: String, in folder: URL) async throws -> URL?
    /// Removes a kept source; one that is already gone, or a path outside the sources folder,
    /// is left alone without error.
    func removeSource(_ relativePath: String) async
}

/// Stored source paths (`sources/{name}`), shared by the disk and the bucket.
public enum SourcePath {
    /// The name part of a stored path, or nil for anything else: letters, digits, dots and
    /// hyphens, not starting with a dot, as our code makes them. No stored string becomes a file
    /// or object name without passing here.
    public static func name(of relativePath: String) -> String? {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "sources", !parts[1].isEmpty, parts[1].utf8.count <= 200,
              parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
              !parts[1].hasPrefix(".")
        else { return nil }
        return String(parts[1])
    }

    /// A kept source's name: its content hash and, when short and plain, the original extension.
    public static func name(contentHash: String, extension ext: String) -> String {
        let lowered = ext.lowercased()
        let safe = lowered.count <= 5 && lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? lowered : ""
        return safe.isEmpty ? contentHash : "\(contentHash).\(safe)"
    }

    /// The language tag of a kept subtitle file (`sources/<sha>.pt-BR.vtt` → `pt-BR`), nil for
    /// any other source.
    public static func subtitleTag(ofSourcePath path: String) -> String? {
        let name = path.split(separator: "/").last ?? ""
        let parts = name.split(separator: ".")
        guard parts.count == 3, parts[2] == "vtt" else { return nil }
        return String(parts[1])
    }
}
