import Foundation
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
        let ext = Self.safeExtension(file.pathExtension)
        let name = ext.isEmpty ? contentHash : "\(contentHash).\(ext)"
        let relative = "sources/\(name)"
        let destination = dataFolder.root.appendingPathComponent(relative)
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: dataFolder.sourcesRoot, withIntermediateDirectories: true)
        if fileManager.fileExists(atPath: destination.path) { return relative }
        // Link or copy to a temporary name first and rename: a half-copied source never
        // appears under its final name.
        let partial = dataFolder.sourcesRoot.appendingPathComponent(".\(name).partial-\(UUID().uuidString)")
        do {
            do {
                try fileManager.linkItem(at: file.resolvingSymlinksInPath(), to: partial)
            } catch {
                try fileManager.copyItem(at: file, to: partial)
            }
            try fileManager.moveItem(at: partial, to: destination)
        } catch {
            try? fileManager.removeItem(at: partial)
            if fileManager.fileExists(atPath: destination.path) { return relative }
            throw PipelineError.storage("cannot keep a copy of \(file.path): \(error.localizedDescription)")
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
    /// `SubtitleSidecar.normalizedTag`) as `sources/<sha256>.<tag>.vtt`, written under a
    /// temporary name and renamed.
    public func keepSubtitles(_ vtt: Data, tag: String) throws -> String {
        let name = "\(ContentHasher.sha256(of: vtt)).\(tag).vtt"
        let relative = "sources/\(name)"
        let destination = dataFolder.root.appendingPathComponent(relative)
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: dataFolder.sourcesRoot, withIntermediateDirectories: true)
        if fileManager.fileExists(atPath: destination.path) { return relative }
        let partial = dataFolder.sourcesRoot.appendingPathComponent(".\(name).partial-\(UUID().uuidString)")
        do {
            try vtt.write(to: partial)
            try fileManager.moveItem(at: partial, to: destination)
        } catch {
            try? fileManager.removeItem(at: partial)
            if fileManager.fileExists(atPath: destination.path) { return relative }
            throw PipelineError.storage("cannot keep subtitles: \(error.localizedDescription)")
        }
        return relative
    }

    /// The language tag of a kept subtitle file (`sources/<sha>.pt-BR.vtt` → `pt-BR`), nil for
    /// any other source.
    public static func subtitleTag(ofSourcePath path: String) -> String? {
        let name = path.split(separator: "/").last ?? ""
        let parts = name.split(separator: ".")
        guard parts.count == 3, parts[2] == "vtt" else { return nil }
        return String(parts[1])
    }

    public func discard(_ relativePath: String) {
        guard let url = try? dataFolder.sourceURL(relativePath) else { return }
        try? FileManager.default.removeItem(at: url)
    }

    static func safeExtension(_ ext: String) -> String {
        let lowered = ext.lowercased()
        return lowered.count <= 5 && lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? lowered : ""
    }
}
