import Foundation
import ReelModels
import ReelStorage

/// Turns a ready generation into a post through the same import → transcode → publish path
/// as any clip: the preview file is staged with a yt-dlp-style sidecar (prompt as title, the
/// creator as uploader, `generated` and the provider as tags) and imported. The clip is
/// validated and transcoded like an upload; nothing skips a step.
public struct GenerationPublisher: Sendable {
    let importer: Importer
    let files: GenerationFiles

    public init(importer: Importer, files: GenerationFiles) {
        self.importer = importer
        self.files = files
    }

    public func publish(_ generation: Generation, description: String?, tags: [String], username: String) async throws -> ImportedPost {
        let source = files.result(generation.id)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw PipelineError.storage("the generated clip \(generation.id) is no longer on disk")
        }
        let stem = "generated-\(generation.id)"
        let sidecar: [String: any Sendable] = [
            "id": stem, "title": generation.prompt, "description": description ?? generation.prompt,
            "uploader": username, "uploader_id": username, "timestamp": Int(generation.createdAt.timeIntervalSince1970),
            "tags": ["generated", generation.provider] + tags, "extractor": "reelhouse-generation",
        ]
        return try await StagedImport(importer: importer).run(
            file: source, placement: .copy, stageName: "generation-\(generation.id)", stem: stem, ext: "mp4", sidecar: sidecar,
            options: ImportOptions(tags: [])
        )
    }
}
