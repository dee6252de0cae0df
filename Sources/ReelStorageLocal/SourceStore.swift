import Crypto
import Foundation
import ReelModels
import ReelStorage

/// Keeps the mezzanine of every post under the data folder's `sources/`, named by content hash,
/// so a transcode job never depends on the user's import folder still being there (with media
/// in a bucket, `S3SourceStorage` keeps them there instead, for workers on other nodes). A hard
/// link costs no space when the import folder is on the same disk.
public struct SourceStore: SourceStorage {
    public let dataFolder: DataFolder

    public init(dataFolder: DataFolder) {
        self.dataFolder = dataFolder
    }

    /// Returns the path relative to the data folder, e.g. `sources/ab12….mp4`.
    public func keep(_ file: URL, contentHash: String) throws -> String {
        try place(SourcePath.name(contentHash: contentHash, extension: file.pathExtension), what: "a copy of \(file.path)") { partial in
            do {
                try FileManager.default.linkItem(at: file.resolvingSymlinksInPath(), to: partial)
            } catch {
                try FileManager.default.copyItem(at: file, to: partial)
            }
        }
    }

    /// Writes `sources/<name>` once, through `write` to a temporary name and a rename, so a
    /// half-written file never appears under its final name; returns its relative path. A file
    /// already there (the same content, named by its hash) is kept as it is.
    private func place(_ name: String, what: String, write: (URL) throws -> Void) throws -> String {
        let relative = "sources/\(name)"
        let destination = dataFolder.root.appendingPathComponent(relative)
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: dataFolder.sourcesRoot, withIntermediateDirectories: true)
        if fileManager.fileExists(atPath: destination.path) { return relative }
        let partial = dataFolder.sourcesRoot.appendingPathComponent(".\(name).partial-\(UUID().uuidString)")
        do {
            try write(partial)
            try fileManager.moveItem(at: partial, to: destination)
        } catch {
            try? fileManager.removeItem(at: partial)
            if fileManager.fileExists(atPath: destination.path) { return relative }
            throw PipelineError.storage("cannot keep \(what): \(error.localizedDescription)")
        }
        return relative
    }

    public func removeSource(_ relativePath: String) async {
        discard(relativePath)
    }

    /// The kept file itself (no copy); nil when it is not there.
    public func localCopy(of relativePath: String, in folder: URL) async throws -> URL? {
        let url = try dataFolder.sourceURL(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Keeps validated WebVTT for language `tag` (already a safe file-name part, see
    /// `SubtitleSidecar.normalizedTag`) as `sources/<sha256>.<tag>.vtt`.
    public func keepSubtitles(_ vtt: Data, tag: String) throws -> String {
        try place("\(Hex.lowercase(SHA256.hash(data: vtt))).\(tag).vtt", what: "subtitles") { partial in try vtt.write(to: partial) }
    }

    public func discard(_ relativePath: String) {
        guard let url = try? dataFolder.sourceURL(relativePath) else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
