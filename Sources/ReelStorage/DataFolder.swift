import Foundation

/// The one folder that holds an installation's state (`--data`, `REELHOUSE_DATA`, `./data`):
///
/// ```
/// data/
///   reelhouse.sqlite   metadata, jobs and encryption keys
///   media/<post id>/   published outputs, served to clients
///   sources/<sha256>.<ext>  the mezzanine each post was made from (hard link when possible)
///   sources/<sha256>.<tag>.vtt  a video's validated subtitles, one per language tag
///   tmp/job-<id>/      a job's work in progress; never served, swept when its job is gone
///   uploads/<id>.bin   a resumable upload in progress (and <id>.json); expired ones swept
/// ```
///
/// With `storage` a bucket, `media/`, `sources/` and `uploads/` live there instead (see
/// docs/scale-out.md); `tmp/` stays, for a job's work and an upload assembled for its import.
///
/// Every path below is derived from integers and hex digests produced by our own code, never
/// from a string a client sent.
public struct DataFolder: Sendable, Equatable {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public var databasePath: String { root.appendingPathComponent("reelhouse.sqlite").path }
    public var mediaRoot: URL { root.appendingPathComponent("media", isDirectory: true) }
    public var sourcesRoot: URL { root.appendingPathComponent("sources", isDirectory: true) }
    public var tempRoot: URL { root.appendingPathComponent("tmp", isDirectory: true) }
    /// Finished generations waiting for their creator (`<id>.mp4`) and local renders in progress.
    public var generationsRoot: URL { root.appendingPathComponent("generations", isDirectory: true) }
    /// Where a generation being published is staged for import (outside every managed folder,
    /// which import skips).
    public var publishStagingRoot: URL { root.appendingPathComponent("publishing", isDirectory: true) }

    /// tus uploads in progress: `<id>.bin` (the bytes so far) and `<id>.json` (what it is).
    public var uploadsRoot: URL { root.appendingPathComponent("uploads", isDirectory: true) }

    public func workDirectory(jobID: Int64) -> URL {
        tempRoot.appendingPathComponent("job-\(jobID)", isDirectory: true)
    }

    /// Resolves a stored source path (relative to the data folder, written by the importer).
    public func sourceURL(_ relativePath: String) throws -> URL {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "sources",
              parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
              !parts[1].hasPrefix(".")
        else { throw PipelineError.inconsistent("unexpected source path \(relativePath)") }
        return root.appendingPathComponent(relativePath)
    }

    /// Creates the folder tree; fails with a clear reason when the location is not writable.
    public func prepare() throws {
        for directory in [root, mediaRoot, sourcesRoot, tempRoot] {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw PipelineError.storage("cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
    }
}
