import Foundation
import ReelModels

/// Turns a ready generation into a post through the same import → transcode → publish path
/// as any clip: the preview file is staged with a yt-dlp-style sidecar (prompt as title, the
/// creator as uploader, `generated` and the provider as tags), imported, and the staging
/// folder removed. The clip is validated and transcoded like an upload; nothing skips a step.
public struct GenerationPublisher: Sendable {
    let importer: Importer
    let files: GenerationFiles

    public init(importer: Importer, files: GenerationFiles) {
        self.importer = importer
        self.files = files
    }

    var stagingRoot: URL { importer.dataFolder.publishStagingRoot }

    public struct Published: Sendable, Equatable {
        public var postID: Int64
        public var jobIDs: [Int64]
    }

    public func publish(_ generation: Generation, description: String?, tags: [String], username: String) async throws -> Published {
        let source = files.result(generation.id)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw PipelineError.storage("the generated clip \(generation.id) is no longer on disk")
        }
        // Staged outside the managed folders (media, sources, tmp, generations), which import skips.
        let stage = stagingRoot.appendingPathComponent("generation-\(generation.id)", isDirectory: true)
        try? FileManager.default.removeItem(at: stage)
        try FileManager.default.createDirectory(at: stage, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: stage) }
        let stem = "generated-\(generation.id)"
        try FileManager.default.copyItem(at: source, to: stage.appendingPathComponent("\(stem).mp4"))
        let sidecar: [String: Any] = [
            "id": stem, "title": generation.prompt, "description": description ?? generation.prompt,
            "uploader": username, "uploader_id": username, "timestamp": Int(generation.createdAt.timeIntervalSince1970),
            "tags": ["generated", generation.provider] + tags, "extractor": "reelhouse-generation",
        ]
        try JSONSerialization.data(withJSONObject: sidecar, options: [.sortedKeys])
            .write(to: stage.appendingPathComponent("\(stem).info.json"))
        let (report, jobIDs) = try await importer.run([stage], options: ImportOptions(tags: []))
        guard let imported = report.imported.first else {
            let reason = (report.rejected + report.skipped + report.warnings).first?.reason ?? "the import produced no post"
            throw PipelineError.inconsistent(reason)
        }
        return Published(postID: imported.id, jobIDs: jobIDs)
    }
}
