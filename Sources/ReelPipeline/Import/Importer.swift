import Foundation
import ReelImport
import ReelMedia
import ReelModels
import ReelProcess
import ReelStorage
import ReelStore

public struct ImportOptions: Sendable {
    /// Added to every imported post (`--tag`), on top of the sidecar's tags.
    public var tags: [String]
    public var maxAttempts: Int
    /// The look every imported video gets in its transcode (a recording's chosen filter).
    public var filter: VideoFilter
    /// The uploading user, recorded on the post (nil for a folder import).
    public var createdBy: Int64?
    /// Videos larger than this are compressed to H.264 ≤ 1080p30 before their ladder (the
    /// upload size policy); nil keeps every source as it is.
    public var compressAboveBytes: Int64?
    /// The library every imported post goes to (it must exist).
    public var libraryID: Int64
    /// Files every imported item as this person's story instead of a post (`--story --as`).
    public var story: StoryImport?
    /// How long an archived (instaloader) story stays in the tray after its original time when
    /// its library does not keep archived stories (`REELHOUSE_STORY_LIFETIME_HOURS`).
    public var storyLifetime: TimeInterval
    /// Set: the posts of this import are told apart from the same content imported otherwise
    /// (their identity is the content hash scoped by this text): an upload posted as a story
    /// is an item of its own even when the library has the clip as a post. Nil: by content.
    public var identityScope: String?

    public static let defaultStoryLifetime: TimeInterval = 24 * 3600

    public init(
        tags: [String] = [], maxAttempts: Int = 3, filter: VideoFilter = .none, createdBy: Int64? = nil,
        compressAboveBytes: Int64? = nil, libraryID: Int64 = Post.defaultLibraryID, story: StoryImport? = nil,
        storyLifetime: TimeInterval = ImportOptions.defaultStoryLifetime, identityScope: String? = nil
    ) {
        self.identityScope = identityScope
        self.story = story
        self.storyLifetime = storyLifetime
        self.libraryID = libraryID
        self.tags = tags
        self.maxAttempts = maxAttempts
        self.filter = filter
        self.createdBy = createdBy
        self.compressAboveBytes = compressAboveBytes
    }

    /// Whether a video source of `size` bytes is compressed first.
    func preparation(kind: PostKind, size: Int64) -> SourcePreparation {
        guard kind == .video, let limit = compressAboveBytes, size > limit else { return .asIs }
        return .compress
    }
}

/// Whose stories an import files its items as, and for how long they stay in the tray.
public struct StoryImport: Sendable, Equatable {
    public var author: String
    public var userID: Int64?
    /// Seconds from posting to leaving the tray; nil never expires.
    public var lifetime: TimeInterval?
    public var archived: Bool

    public init(author: String, userID: Int64? = nil, lifetime: TimeInterval?, archived: Bool = false) {
        self.author = author
        self.userID = userID
        self.lifetime = lifetime
        self.archived = archived
    }

    /// The filing of an item posted at `postedAt`.
    public func filing(postedAt: Date) -> StoryFiling {
        StoryFiling(
            author: author, userID: userID, postedAt: postedAt, expiresAt: lifetime.map { postedAt.addingTimeInterval($0) },
            archived: archived
        )
    }
}

/// What the importer is doing, for a progress bar or a plain log.
public enum ImportEvent: Sendable {
    case scanned(candidates: Int)
    case inspecting(path: String, index: Int, total: Int)
    case imported(path: String, folderName: String)
    case skipped(path: String, reason: String)
    case rejected(path: String, reason: String)
    case warning(path: String, message: String)
}

/// Turns folders of clips into queued posts: scan → sidecars → ffprobe validation → keep the
/// source → one row and one transcode job per post. Nothing is stored for a rejected file.
public struct Importer: Sendable {
    public let dataFolder: DataFolder
    public let store: any LibraryStore & ArchivedStorySettingStore
    public let inspector: MediaInspector
    public let runner: any ProcessRunner
    /// Where sources are kept: the data folder's `sources/` (`SourceStore`) or the bucket.
    public let sources: any SourceStorage
    public let now: @Sendable () -> Date

    public init(
        dataFolder: DataFolder, store: any LibraryStore & ArchivedStorySettingStore, runner: any ProcessRunner, limits: MediaLimits,
        sources: any SourceStorage, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.dataFolder = dataFolder
        self.sources = sources
        self.store = store
        self.runner = runner
        self.inspector = MediaInspector(runner: runner, limits: limits)
        self.now = now
    }

    /// Returns the report and the jobs that were queued (to wait for them).
    public func run(
        _ roots: [URL], options: ImportOptions, onEvent: @escaping @Sendable (ImportEvent) -> Void = { _ in }
    ) async throws -> (report: ImportReport, jobIDs: [Int64]) {
        var scan: ScanResult
        do {
            scan = try LibraryScanner.scan(roots)
        } catch {
            throw PipelineError.storage("\(error)")
        }
        // Importing a folder that contains the data folder must not re-import our own outputs
        // (media, kept sources, work in progress) nor list the database files as skipped. Other
        // folders inside it, such as the generated demo source, are imported as usual.
        let managed = [dataFolder.mediaRoot, dataFolder.sourcesRoot, dataFolder.tempRoot, dataFolder.generationsRoot, dataFolder.uploadsRoot].map { $0.resolvingSymlinksInPath().path + "/" }
        scan.candidates.removeAll { candidate in
            candidate.mediaFiles.contains { file in managed.contains { file.resolvingSymlinksInPath().path.hasPrefix($0) } }
        }
        let dataRoot = dataFolder.root.resolvingSymlinksInPath().path + "/"
        scan.ignored.removeAll { ignored in roots.contains { root in
            root.appendingPathComponent(ignored.path).resolvingSymlinksInPath().path.hasPrefix(dataRoot)
        } }
        var report = ImportReport()
        var jobIDs: [Int64] = []
        for ignored in scan.ignored {
            report.skipped.append(.init(path: ignored.path, reason: ignored.reason))
            onEvent(.skipped(path: ignored.path, reason: ignored.reason))
        }
        onEvent(.scanned(candidates: scan.candidates.count))
        for (index, candidate) in scan.candidates.enumerated() {
            onEvent(.inspecting(path: candidate.displayPath, index: index, total: scan.candidates.count))
            var outcome = CandidateOutcome()
            jobIDs += try await importCandidate(candidate, options: options, outcome: &outcome)
            outcome.emit(into: &report, onEvent: onEvent)
        }
        return (report, jobIDs)
    }

    private func importCandidate(_ candidate: ImportCandidate, options: ImportOptions, outcome: inout CandidateOutcome) async throws -> [Int64] {
        let (sidecar, caption) = (candidate.sidecar, candidate.captionFile)
        let (sidecarResult, warnings) = try await BlockingIO.run {
            SidecarLoader.loadResult(sidecar: sidecar, caption: caption, decompressXZ: XZ.decompress)
        }
        for warning in warnings { outcome.warnings.append(.init(path: candidate.displayPath, reason: warning)) }
        let sidecarMetadata = sidecarResult?.metadata
        let (story, storyWarning) = try await storyFiling(sidecarStory: sidecarResult?.story, options: options)
        if let storyWarning { outcome.warnings.append(.init(path: candidate.displayPath, reason: storyWarning)) }
        let subtitleFiles = candidate.subtitles
        let (subtitles, subtitleWarnings) = try await BlockingIO.run { SubtitleSidecars.load(subtitleFiles) }
        for warning in subtitleWarnings { outcome.warnings.append(.init(path: candidate.displayPath, reason: warning)) }
        var metadata = sidecarMetadata ?? PostMetadata()
        metadata.tags = Self.mergeTags(metadata.tags, options.tags)

        // Validate every file first; a rejected file is reported and stored nowhere.
        var accepted: [InspectedMedia] = []
        for file in candidate.mediaFiles {
            let display = Self.displayPath(file, candidate: candidate)
            switch try await inspector.inspect(file) {
            case .success(let media): accepted.append(media)
            case .failure(let rejection): outcome.rejected.append(.init(path: display, reason: rejection.message))
            }
        }
        // Videos (and animated GIFs) become posts of their own; the still images of one
        // candidate become one image post, or a carousel when there are several.
        let videos = accepted.filter { $0.mediaClass != .image }
        let images = accepted.filter { $0.mediaClass == .image }
        var groups = videos.map { [$0] }
        // A story shows one picture at a time: each image is its own item, not a carousel.
        if story != nil {
            groups += images.map { [$0] }
        } else if !images.isEmpty {
            groups.append(images)
        }

        var jobIDs: [Int64] = []
        for files in groups {
            let kind: PostKind = files.count > 1 ? .carousel : (files[0].mediaClass == .image ? .image : .video)
            jobIDs += try await insert(
                files, kind: kind, metadata: metadata, subtitles: kind == .video ? subtitles : [], candidate: candidate,
                options: options, story: story, outcome: &outcome
            )
        }
        return jobIDs
    }

    /// Stores one post — or, for a story video longer than a story item, one post per part of
    /// it, all of one kept source — and returns the queued jobs. What is already stored (the
    /// same content, or the same part of it) is skipped, so importing again adds nothing.
    private func insert(
        _ files: [InspectedMedia], kind: PostKind, metadata: PostMetadata, subtitles: [SubtitleSidecars.Track], candidate: ImportCandidate,
        options: ImportOptions, story: StoryFiling?, outcome: inout CandidateOutcome
    ) async throws -> [Int64] {
        let display = Self.displayPath(files[0].url, candidate: candidate)
        let urls = files.map(\.url)
        let hashes = try await BlockingIO.run { try urls.map { try ContentHasher.sha256(of: $0) } }
        let contentHash = ContentHasher.scoped(ContentHasher.combine(hashes), by: options.identityScope)
        let planned: [PlannedPost] = story.map { filing in
            StoryPart.split(filing, contentHash: contentHash, kind: kind, duration: files[0].probe.duration)
                .map { PlannedPost(contentHash: $0.contentHash, trim: $0.trim, story: $0.filing) }
        } ?? [PlannedPost(contentHash: contentHash, trim: nil, story: nil)]

        var pending: [PlannedPost] = []
        for item in planned {
            if let existing = try await store.post(contentHash: item.contentHash) {
                if existing.status != .failed {
                    var reason = "already imported as \(existing.folderName)"
                    if candidate.sidecar != nil || !options.tags.isEmpty, existing.metadata != metadata {
                        try await store.updateMetadata(postID: existing.id, metadata: metadata)
                        reason += "; metadata updated"
                    }
                    outcome.skipped.append(.init(path: display, reason: reason))
                    continue
                }
                // A post that failed before gets a fresh start rather than being stuck forever.
                try await store.deletePost(id: existing.id)
            }
            pending.append(item)
        }
        guard !pending.isEmpty else { return [] }

        var kept: [String] = []
        for (file, hash) in zip(files, hashes) { kept.append(try await sources.keep(file.url, contentHash: hash)) }
        // Subtitles follow the media in the post's sources; the transcode tells them apart by
        // name. A part has none: its timeline is not the source's.
        let isSplit = planned.contains { $0.trim != nil }
        if !isSplit { for subtitle in subtitles { kept.append(try await sources.keepSubtitles(subtitle.vtt, tag: subtitle.tag)) } }
        let stem = files[0].url.deletingPathExtension().lastPathComponent
        let size = (try? FileManager.default.attributesOfItem(atPath: files[0].url.path)[.size] as? NSNumber)?.int64Value ?? 0
        // Parts share one source: compressing would replace (and delete) the file the other
        // parts still read, so a split video's parts are encoded from the source as it is.
        let preparation = isSplit ? SourcePreparation.asIs : options.preparation(kind: kind, size: size)
        var jobIDs: [Int64] = []
        for item in pending {
            let newPost = NewPost(
                kind: kind, folderName: FolderName.make(from: metadata, fileStem: stem), metadata: metadata,
                contentHash: item.contentHash, sourcePaths: kept, dateAdded: now(), filter: kind == .video ? options.filter : .none,
                createdBy: options.createdBy, preparation: preparation, libraryID: options.libraryID,
                story: item.story, trim: item.trim
            )
            do {
                let (post, job) = try await store.insertPost(newPost, maxAttempts: options.maxAttempts, now: now())
                outcome.imported.append(.init(path: display, id: post.id, folderName: post.folderName))
                jobIDs.append(job.id)
            } catch StoreError.conflict(let what) {
                // Another importer stored the same content between our check and our insert.
                outcome.skipped.append(.init(path: display, reason: "already imported (\(what))"))
            } catch {
                // The kept files go only when no post of this source (stored now or before) reads them.
                if jobIDs.isEmpty, pending.count == planned.count { for path in kept { await sources.removeSource(path) } }
                throw error
            }
        }
        return jobIDs
    }

    static func mergeTags(_ first: [String], _ second: [String]) -> [String] {
        var seen = Set<String>()
        return (first + second).compactMap { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { return nil }
            return trimmed
        }
    }

    static func displayPath(_ file: URL, candidate: ImportCandidate) -> String {
        guard candidate.mediaFiles.count > 1 else { return candidate.displayPath }
        let directory = (candidate.displayPath as NSString).deletingLastPathComponent
        return directory.isEmpty ? file.lastPathComponent : directory + "/" + file.lastPathComponent
    }
}

/// One post `insert` is about to store: its identity, its part of the source, its filing.
private struct PlannedPost {
    var contentHash: String
    var trim: SourceTrim?
    var story: StoryFiling?
}

/// Report lines for one candidate, emitted together once it is done.
private struct CandidateOutcome {
    var imported: [ImportReport.Imported] = []
    var skipped: [ImportReport.Skipped] = []
    var rejected: [ImportReport.Skipped] = []
    var warnings: [ImportReport.Skipped] = []

    func emit(into report: inout ImportReport, onEvent: (ImportEvent) -> Void) {
        for line in warnings { onEvent(.warning(path: line.path, message: line.reason)) }
        for line in rejected { onEvent(.rejected(path: line.path, reason: line.reason)) }
        for line in skipped { onEvent(.skipped(path: line.path, reason: line.reason)) }
        for line in imported { onEvent(.imported(path: line.path, folderName: line.folderName)) }
        report.imported += imported
        report.skipped += skipped
        report.rejected += rejected
        report.warnings += warnings
    }
}
