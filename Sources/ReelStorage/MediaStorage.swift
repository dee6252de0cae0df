import Foundation

/// Where published media lives. The embedded implementation is a local folder; an
/// S3-compatible bucket can sit behind the same protocol (publish = upload then flip the row).
public protocol MediaStorage: Sendable {
    /// Makes a fully staged post folder visible under `postKey`, all at once: readers see either
    /// nothing or every file. Replaces leftovers of an earlier, unfinished publish.
    func publish(stagedDirectory: URL, postKey: String) async throws
    func remove(postKey: String) async throws
    func postKeys() async throws -> [String]
    /// A local file for serving with zero copies, when the storage is local.
    func localFile(postKey: String, relativePath: String) -> URL?
}

/// Where posts' source files (their mezzanines) are kept, by the path relative to the data
/// folder that the store records (`sources/ab12….mp4`).
public protocol SourceStorage: Sendable {
    /// Removes a kept source; one that is already gone, or a path outside the sources folder,
    /// is left alone without error.
    func removeSource(_ relativePath: String) async
}
