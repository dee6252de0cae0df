import Foundation
import Logging
import ReelJobs
import ReelMedia
import ReelModels
import ReelProcess
import ReelStorage
import ReelStore

public struct PipelineConfiguration: Sendable {
    public var encryptSegments: Bool
    public var transcode: TranscodeOptions
    /// Keep a compressed upload's original as its source instead of the compressed file.
    public var keepOriginalUploads: Bool

    public init(encryptSegments: Bool = true, transcode: TranscodeOptions = TranscodeOptions(), keepOriginalUploads: Bool = false) {
        self.encryptSegments = encryptSegments
        self.transcode = transcode
        self.keepOriginalUploads = keepOriginalUploads
    }
}

/// The `transcode` job: source → staged outputs in `tmp/job-<id>/out` → one atomic move into
/// `media/<post id>` → one transaction marking the post `ready`.
///
/// Crash safety comes from the order: until the database says `ready`, nothing serves the
/// files, and a retried attempt starts by deleting whatever the previous one left.
public struct TranscodeJobHandler: JobHandler {
    public let kind = JobKind.transcode
    let dataFolder: DataFolder
    let store: any LibraryStore
    let storage: any MediaStorage
    /// Where the post's sources are kept: the data folder's `sources/` unless told otherwise.
    let sources: any SourceStorage
    let runner: any ProcessRunner
    let configuration: PipelineConfiguration
    let logger: Logger

    public init(
        dataFolder: DataFolder, store: any LibraryStore, storage: any MediaStorage, sources: any SourceStorage,
        runner: any ProcessRunner, configuration: PipelineConfiguration, logger: Logger
    ) {
        self.sources = sources
        self.dataFolder = dataFolder
        self.store = store
        self.storage = storage
        self.runner = runner
        self.configuration = configuration
        self.logger = logger
    }

    public func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        guard let postID = job.postID, let post = try await store.post(id: postID) else {
            throw JobFailure.invalidInput("the post of this job no longer exists")
        }
        if post.status == .ready || post.status == .story { return .finished }  // published by an attempt that died before saying so
        try await store.setStatus(postID: postID, status: .processing, failureReason: nil)

        let work = dataFolder.workDirectory(jobID: job.id)
        let staging = work.appendingPathComponent("out", isDirectory: true)
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        do {
            let paths = try await store.sourcePaths(postID: postID)
            // Local files for ffmpeg: the kept files themselves on the disk, copies fetched into
            // the work folder from a bucket (the post may have been imported on another node).
            let fetched = work.appendingPathComponent("sources", isDirectory: true)
            var subtitles: [(tag: String, url: URL)] = []
            var sourceFiles: [URL] = []
            for path in paths {
                let tag = SourcePath.subtitleTag(ofSourcePath: path)
                guard let url = try await sources.localCopy(of: path, in: fetched) else {
                    if tag != nil {
                        logger.warning("a post's subtitles are missing; transcoding without them", metadata: ["post": "\(postID)"])
                        continue
                    }
                    throw JobFailure.invalidInput("the source file \(path.split(separator: "/").last ?? "") is missing from the storage")
                }
                if let tag { subtitles.append((tag, url)) } else { sourceFiles.append(url) }
            }
            guard !sourceFiles.isEmpty else { throw JobFailure.invalidInput("the post has no source file") }
            let key = post.kind == .video && configuration.encryptSegments ? SegmentCipher.makeKey() : nil
            let media: PublishedMedia
            switch post.kind {
            case .video:
                var options = configuration.transcode
                options.filterGraphPrefix = Self.prefix(options.filterGraphPrefix, post.filter.ffmpegChain)
                var transcoder = VideoTranscoder(runner: runner, options: options)
                var source = sourceFiles[0]
                if post.preparation == .compress {
                    let preparer = SourcePreparer(
                        sources: sources, store: store, runner: runner,
                        keepOriginal: configuration.keepOriginalUploads, threads: options.threads
                    )
                    source = try await preparer.prepare(postID: postID, source: source, work: work, context: context)
                    transcoder.progressRange = SourcePreparer.progressRange.upperBound...0.9
                }
                // A part's timeline starts at its own 0; the source's cues would be out of step.
                media = try await transcoder.transcode(
                    source: source, subtitles: post.trim == nil ? subtitles : [], trim: post.trim, into: staging, key: key, context: context
                )
            case .image, .carousel:
                media = try await ImageProcessor(runner: runner).process(sources: sourceFiles, into: staging, context: context)
            }
            try Task.checkCancellation()
            let postKey = String(postID)
            try await storage.publish(stagedDirectory: staging, postKey: postKey)
            do {
                try await store.publish(postID: postID, media: media, key: key)
            } catch StoreError.notFound {
                // Deleted while it was being transcoded: the files just published belong to no post.
                try? await storage.remove(postKey: postKey)
                throw JobFailure.invalidInput("the post of this job was deleted")
            }
            await context.reportProgress(1)
            logger.info("published post", metadata: ["post": "\(postID)", "folder": "\(post.folderName)"])
            return .finished
        } catch let failure as JobFailure {
            try await markFailedIfFinal(postID: postID, failure: failure, job: job)
            throw failure
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            try await markFailedIfFinal(postID: postID, failure: .transient("\(error)"), job: job)
            throw error
        }
    }

    /// The post shows `failed` with the reason as soon as no attempt is left, so it never
    /// stays "processing" forever.
    private func markFailedIfFinal(postID: Int64, failure: JobFailure, job: Job) async throws {
        let reason: String
        let final: Bool
        switch failure {
        case .invalidInput(let message): (reason, final) = (message, true)
        case .transient(let message): (reason, final) = (message, job.attempts >= job.maxAttempts)
        }
        do {
            try await store.setStatus(postID: postID, status: final ? .failed : .queued, failureReason: final ? reason : nil)
        } catch StoreError.notFound {
            // Deleted meanwhile: there is no post left to mark, and its job went with it.
        }
    }

    /// The deployment's own prefix (if any) followed by the post's look.
    static func prefix(_ configured: String?, _ look: String?) -> String? {
        let parts = [configured, look].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ",")
    }
}
