import Foundation
import Observation
import ReelKit
import ReelModels

/// Create: a file the person picked goes up resumably (tus), as a post or as their story,
/// checked against the server's size limit first; then the server's job turns it into a
/// ladder, and the screen follows it until the post is published. An upload cut off by the
/// network or by the app being killed continues where the server stopped (`resume()`).
@Observable @MainActor
public final class CreateModel {
    public enum Stage: Sendable, Equatable {
        case choosing
        case uploading(sent: Int64, total: Int64)
        /// Every byte is there; the server is making the post's media (the job's state).
        case processing(postID: Int64, jobState: String, progress: Double)
        case published(postID: Int64)
        case failed(ScreenError)
    }

    /// What an interrupted upload needs to continue after a relaunch.
    struct PendingUpload: Codable, Equatable {
        var file: URL
        var location: String
        var metadata: [String: String]
    }

    public static let acceptedExtensions: Set<String> = ["mp4", "mov", "m4v", "webm", "mkv", "jpg", "jpeg", "png", "heic", "webp", "gif"]

    public private(set) var stage: Stage = .choosing
    public private(set) var file: URL?
    public private(set) var fileSize: Int64 = 0
    public var caption = ""
    public var tags = ""
    public var asStory = false
    public var library: Int64?
    /// True when an interrupted upload can continue (`resume()`).
    public private(set) var canResume = false
    /// How often the job is asked about (seconds of the model clock).
    public var jobPollInterval: TimeInterval = 1
    public var jobWaitLimit: TimeInterval = 600
    /// Bytes per request: small enough that a cut-off costs little, large enough to be quick.
    public var chunkSize = 512 * 1024
    private var limit: Int64?
    private let context: FeatureContext
    private nonisolated static let pendingPath = "pending-upload.json"

    public init(context: FeatureContext) {
        self.context = context
        canResume = loadPending() != nil
    }

    public var fraction: Double {
        switch stage {
        case .uploading(let sent, let total): total > 0 ? Double(sent) / Double(total) : 0
        case .processing(_, _, let progress): progress
        case .published: 1
        default: 0
        }
    }

    /// The person picked a file: refused here when the server would refuse it anyway.
    @discardableResult
    public func choose(file url: URL) async -> Bool {
        file = nil
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        guard let size else { return fail(.rejected, "That file cannot be read.") }
        guard size > 0 else { return fail(.rejected, "That file is empty.") }
        guard Self.acceptedExtensions.contains(url.pathExtension.lowercased()) else {
            return fail(.rejected, "Reelhouse takes videos (MP4, MOV, WebM) and photos (JPEG, PNG, HEIC).")
        }
        if limit == nil {
            let client = context.client
            if case .success(let known) = await context.attempt({ try await client.uploadLimit() }) { limit = known }
        }
        if let limit, size > limit {
            return fail(.rejected, "The file is \(Self.describe(size)); this server takes up to \(Self.describe(limit)).")
        }
        file = url
        fileSize = size
        stage = .choosing
        return true
    }

    /// Sends the chosen file with the caption, tags and story choice.
    public func upload() async {
        guard let file else {
            stage = .failed(ScreenError(.rejected, "Choose a video or a photo first."))
            return
        }
        var metadata = ["filename": file.lastPathComponent, "description": caption, "tags": tags, "story": asStory ? "1" : "0"]
        if let library { metadata["library"] = String(library) }
        metadata = metadata.filter { !$0.value.isEmpty }
        await send(PendingUpload(file: file, location: "", metadata: metadata))
    }

    /// Continues the upload that was cut off (network, or the app killed and relaunched).
    public func resume() async {
        guard let pending = loadPending() else {
            canResume = false
            return
        }
        file = pending.file
        await send(pending)
    }

    /// Forgets an interrupted upload (and tells the server to drop its bytes).
    public func discardPending() async {
        if let pending = loadPending(), !pending.location.isEmpty { try? await context.client.deleteUpload(at: pending.location) }
        try? context.files.remove(Self.pendingPath)
        canResume = false
        stage = .choosing
    }

    private func send(_ upload: PendingUpload) async {
        let total = (try? FileManager.default.attributesOfItem(atPath: upload.file.path)[.size] as? NSNumber)?.int64Value ?? 0
        stage = .uploading(sent: 0, total: total)
        let uploader = ReelUploader(client: context.client, chunkSize: chunkSize)
        let files = context.files
        do throws(ReelAPIError) {
            let status = try await uploader.upload(
                file: upload.file, metadata: upload.metadata, location: upload.location.isEmpty ? nil : upload.location,
                onCreated: { location in
                    var saved = upload
                    saved.location = location
                    try? files.write(try JSONEncoder().encode(saved), to: Self.pendingPath)
                },
                onProgress: { [weak self] sent, total in await self?.progressed(sent: sent, total: total) }
            )
            try? files.remove(Self.pendingPath)
            canResume = false
            guard let postID = status.postID else { return }
            await follow(postID: postID, jobID: status.jobID)
        } catch {
            let screen = context.failed(error)
            canResume = error.isTransient && loadPending() != nil
            if !error.isTransient { try? files.remove(Self.pendingPath) }
            stage = .failed(screen)
        }
    }

    private func progressed(sent: Int64, total: Int64) {
        stage = .uploading(sent: sent, total: total)
    }

    /// Follows the job making the post's media until it ends (or `jobWaitLimit` passes: the
    /// post then publishes on its own, and the screen says it is still processing).
    private func follow(postID: Int64, jobID: Int64?) async {
        guard let jobID else {
            stage = .published(postID: postID)
            return
        }
        stage = .processing(postID: postID, jobState: JobState.queued.rawValue, progress: 0)
        let started = context.clock.now()
        while context.clock.now().timeIntervalSince(started) < jobWaitLimit {
            let client = context.client
            switch await context.attempt({ try await client.job(id: jobID) }) {
            case .success(let job):
                switch job.state {
                case JobState.succeeded.rawValue:
                    stage = .published(postID: postID)
                    return
                case JobState.failed.rawValue:
                    stage = .failed(ScreenError(.rejected, job.lastError ?? "The server could not make this post's video."))
                    return
                default:
                    stage = .processing(postID: postID, jobState: job.state, progress: job.progress)
                }
            case .failure(let failure) where failure.kind == .signedOut:
                stage = .failed(failure)
                return
            case .failure:
                break   // keep following: the next answer may come
            }
            do { try await context.clock.sleep(seconds: jobPollInterval) } catch { return }
        }
    }

    /// Back to an empty form after a published post.
    public func reset() {
        file = nil
        fileSize = 0
        caption = ""
        tags = ""
        asStory = false
        stage = .choosing
    }

    private func loadPending() -> PendingUpload? {
        (try? context.files.read(Self.pendingPath)).flatMap { $0 }.flatMap { try? JSONDecoder().decode(PendingUpload.self, from: $0) }
    }

    private func fail(_ kind: ScreenError.Kind, _ message: String) -> Bool {
        stage = .failed(ScreenError(kind, message))
        return false
    }

    static func describe(_ bytes: Int64) -> String {
        bytes >= 1_000_000 ? "\((Double(bytes) / 1_000_000 * 10).rounded() / 10) MB" : "\(max(1, bytes / 1000)) kB"
    }
}
