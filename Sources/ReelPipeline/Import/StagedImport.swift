import Foundation
import ReelModels
import ReelStorage

/// One file, with a yt-dlp-style sidecar, imported through the same scan → validate → keep →
/// queue path as a folder of clips: how generations and uploads become posts. The file is
/// staged under `publishing/<name>/` (outside every folder import skips) and the stage is
/// removed afterwards, whatever happened; the importer keeps its own copy (a hard link).
public struct StagedImport: Sendable {
    let importer: Importer

    public init(importer: Importer) {
        self.importer = importer
    }

    public enum Placement: Sendable {
        case copy
        /// Cheaper for a large upload: a rename when stage and file share a disk.
        case move
        /// A hard link (a copy across disks): as cheap as a move, and the original stays
        /// until the caller knows the import is recorded, so a crash in between loses nothing.
        case link
    }

    /// `stem` and `ext` must already be safe file-name parts (our own ids, a sanitized name).
    public func run(
        file: URL, placement: Placement, stageName: String, stem: String, ext: String, sidecar: [String: any Sendable],
        options: ImportOptions
    ) async throws -> ImportedPost {
        let stage = importer.dataFolder.publishStagingRoot.appendingPathComponent(stageName, isDirectory: true)
        let fileManager = FileManager.default
        try? fileManager.removeItem(at: stage)
        try fileManager.createDirectory(at: stage, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: stage) }
        let staged = stage.appendingPathComponent("\(stem).\(ext)")
        switch placement {
        case .copy: try fileManager.copyItem(at: file, to: staged)
        case .move: try fileManager.moveItem(at: file, to: staged)
        case .link:
            do {
                try fileManager.linkItem(at: file, to: staged)
            } catch {
                try fileManager.copyItem(at: file, to: staged)
            }
        }
        try JSONSerialization.data(withJSONObject: sidecar, options: [.sortedKeys])
            .write(to: stage.appendingPathComponent("\(stem).info.json"))
        let (report, jobIDs) = try await importer.run([stage], options: options)
        guard let imported = report.imported.first else {
            let reason = (report.rejected + report.skipped + report.warnings).first?.reason ?? "the import produced no post"
            throw PipelineError.rejected(reason)
        }
        return ImportedPost(postID: imported.id, jobIDs: jobIDs)
    }
}
