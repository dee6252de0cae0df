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
    /// A published file's bytes (all, or `range` of them, inclusive and within the size), so a
    /// node without the files can serve them; nil when the file (or its post) is not there.
    func object(postKey: String, relativePath: String, range: ClosedRange<Int>?) async throws -> StoredObject?
}

/// An error of a storage backend other than the local disk (a bucket that refused a request or
/// could not be reached). The server answers it like a disk fault: 500 `storage_error`, with
/// the details in the log only.
public protocol StorageFault: Error {}

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

/// Where posts' source files (their mezzanines) are kept, by the path relative to the data
/// folder that the store records (`sources/ab12….mp4`).
public protocol SourceStorage: Sendable {
    /// Removes a kept source; one that is already gone, or a path outside the sources folder,
    /// is left alone without error.
    func removeSource(_ relativePath: String) async
}
