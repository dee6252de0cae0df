import Foundation
import ReelModels
import ReelStorage
import ReelStore

/// A complete upload becomes a post through the import path: staged under its (sanitized)
/// file name with a sidecar built from its metadata, validated by ffprobe, kept as a source
/// and queued for transcoding with the chosen look. Content that is already a post returns
/// that post instead. The upload's own bytes are left in place (the stage holds a hard link):
/// the caller drops them once the outcome is recorded, so a crash never loses the only copy.
public struct UploadPublisher: Sendable {
    let importer: Importer
    let store: any LibraryStore & JobStore
    let policy: UploadPolicy

    public init(importer: Importer, store: any LibraryStore & JobStore, policy: UploadPolicy) {
        self.importer = importer
        self.store = store
        self.policy = policy
    }

    public func publish(_ record: UploadRecord, file: URL, username: String) async throws -> ImportedPost {
        let hash = try ContentHasher.sha256(of: file)
        // A story is its own item even of content the library has (it expires; the post stays),
        // so its identity is scoped by the upload: a retried import still finds what it made.
        let story = try UploadMetadata.story(record.metadata[UploadMetadata.storyKey])
        let scope = story ? "story upload \(record.id)" : nil
        let identity = ContentHasher.scoped(ContentHasher.combine([hash]), by: scope)
        // A long story video was stored as parts; the first names the outcome.
        for candidate in [identity] + (story ? [StoryPart.partHash(identity, index: 0)] : []) {
            if let existing = try await store.post(contentHash: candidate), existing.status != .failed {
                return ImportedPost(postID: existing.id, jobIDs: try await store.jobs(postID: existing.id).map(\.id))
            }
        }
        let name = UploadFileName(filename: record.metadata["filename"], filetype: record.metadata["filetype"], fallback: "upload-\(record.id.prefix(8))")
        var sidecar: [String: any Sendable] = [
            "id": name.stem, "uploader": username, "uploader_id": username,
            "timestamp": Int(record.createdAt.timeIntervalSince1970), "extractor": "reelhouse-upload",
        ]
        if let description = record.metadata["description"], !description.isEmpty { sidecar["description"] = description }
        let options = ImportOptions(
            tags: UploadMetadata.tags(record.metadata["tags"]), filter: try UploadMetadata.filter(record.metadata["filter"]),
            createdBy: record.userID, compressAboveBytes: policy.compressAboveBytes,
            libraryID: try UploadMetadata.library(record.metadata[UploadMetadata.libraryKey]) ?? Post.defaultLibraryID,
            story: story ? StoryImport(author: username, userID: record.userID, lifetime: policy.storyLifetime) : nil,
            identityScope: scope
        )
        let imported = try await StagedImport(importer: importer).run(
            file: file, placement: .link, stageName: "upload-\(record.id)", stem: name.stem, ext: name.ext, sidecar: sidecar,
            options: options
        )
        return imported
    }
}

/// The name a complete upload is staged under: the uploader's file name reduced to
/// `[A-Za-z0-9_-]`, and an extension import recognises (from the name, else from the type).
struct UploadFileName: Equatable {
    let stem: String
    let ext: String

    static let typeExtensions = [
        "video/mp4": "mp4", "video/quicktime": "mov", "video/webm": "webm", "video/x-matroska": "mkv", "video/x-m4v": "m4v",
        "image/gif": "gif", "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/heic": "heic",
    ]
    static let knownExtensions = Set(typeExtensions.values).union(["jpeg", "heif"])

    init(stem: String, ext: String) {
        self.stem = stem
        self.ext = ext
    }

    init(filename: String?, filetype: String?, fallback: String) {
        let base = ((filename ?? "") as NSString).lastPathComponent
        let nameExtension = (base as NSString).pathExtension.lowercased()
        let rawStem = (base as NSString).deletingPathExtension
        let cleaned = String(rawStem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" }.prefix(60))
        let trimmed = cleaned.trimmingCharacters(in: CharacterSet(charactersIn: "-_"))
        stem = trimmed.isEmpty ? fallback : trimmed
        if Self.knownExtensions.contains(nameExtension) {
            ext = nameExtension
        } else {
            let type = (filetype ?? "").lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            // Unknown: ffprobe decides by content anyway; mp4 only makes the scanner look at it.
            ext = Self.typeExtensions[type] ?? "mp4"
        }
    }
}
