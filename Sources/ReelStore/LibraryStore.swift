import Foundation
import ReelModels

/// A post as the importer hands it over: metadata known, media not yet produced.
public struct NewPost: Sendable, Equatable {
    public var kind: PostKind
    /// Preferred slug; the store makes it unique (appending `-2`, `-3`…) if it is taken.
    public var folderName: String
    public var metadata: PostMetadata
    public var contentHash: String
    /// Where the job finds its input, relative to the data folder (e.g. `sources/ab12….mp4`);
    /// several for a carousel, in order.
    public var sourcePaths: [String]
    public var dateAdded: Date
    public var filter: VideoFilter
    public var createdBy: Int64?
    public var preparation: SourcePreparation
    /// Must name an existing library (`StoreError.notFound` otherwise).
    public var libraryID: Int64
    /// Files the post as a story item in the same transaction (so no worker can publish it as
    /// a feed post in between); nil for a post.
    public var story: StoryFiling?
    /// The part of the source the post shows (story parts of a long video); nil: all of it.
    public var trim: SourceTrim?

    public init(
        kind: PostKind, folderName: String, metadata: PostMetadata, contentHash: String, sourcePaths: [String], dateAdded: Date,
        filter: VideoFilter = .none, createdBy: Int64? = nil, preparation: SourcePreparation = .asIs,
        libraryID: Int64 = Post.defaultLibraryID, story: StoryFiling? = nil, trim: SourceTrim? = nil
    ) {
        self.story = story
        self.trim = trim
        self.libraryID = libraryID
        self.filter = filter
        self.createdBy = createdBy
        self.preparation = preparation
        self.kind = kind
        self.folderName = folderName
        self.metadata = metadata
        self.contentHash = contentHash
        self.sourcePaths = sourcePaths
        self.dateAdded = dateAdded
    }
}

/// The library: posts, their media and their encryption keys.
///
/// Keys live here, not in the media tree, so a leaked media folder (or a CDN bucket) never
/// contains what decrypts it.
public protocol LibraryStore: Sendable {
    func post(id: Int64) async throws -> Post?
    func post(folderName: String) async throws -> Post?
    func post(contentHash: String) async throws -> Post?
    func posts(status: PostStatus?, limit: Int) async throws -> [Post]
    func sourcePaths(postID: Int64) async throws -> [String]

    /// Inserts a post in status `queued` together with a `transcode` job for it, atomically.
    func insertPost(_ post: NewPost, maxAttempts: Int, now: Date) async throws -> (Post, Job)
    func updateMetadata(postID: Int64, metadata: PostMetadata) async throws
    func setStatus(postID: Int64, status: PostStatus, failureReason: String?) async throws
    /// Marks the post `ready` with its media and key in one transaction.
    func publish(postID: Int64, media: PublishedMedia, key: Data?) async throws
    /// The source was prepared (an upload compressed): `sourcePath` replaces the post's video
    /// (its first source; subtitle files after it stay) and its preparation becomes `asIs`, in one transaction, so a retried job never
    /// compresses twice. Returns the source path it replaced.
    func finishSourcePreparation(postID: Int64, sourcePath: String) async throws -> String?
    func encryptionKey(postID: Int64) async throws -> Data?
    func deletePost(id: Int64) async throws
    /// Deletes the post like `deletePost` and answers the source paths no other post uses any
    /// more (the caller removes those files); nil when there was no such post.
    func removePost(id: Int64) async throws -> [String]?
    /// Sets the description (when given; empty clears it) and replaces the tags (when given),
    /// in one transaction. `StoreError.notFound` when there is no such post.
    func editPost(id: Int64, description: String??, tags: [String]?) async throws
    func countPosts(status: PostStatus?) async throws -> Int
    /// Every post id in `status`, in one query (the sweeper compares it with the media folders).
    func postIDs(status: PostStatus) async throws -> Set<Int64>
}

/// The durable job queue. Every method is a single transaction, so several workers (threads,
/// processes or, later, machines on PostgreSQL) can share one queue safely.
public protocol JobStore: Sendable {
    func job(id: Int64) async throws -> Job?
    /// Newest first; nil states or kinds: all of them.
    func jobs(states: [JobState]?, kinds: [JobKind]?, limit: Int) async throws -> [Job]
    func jobs(postID: Int64) async throws -> [Job]
    /// The job of `kind` working on `subject` (a generation id, an upload id), if recorded.
    func job(kind: JobKind, subject: String) async throws -> Job?
    /// Records work on `subject` as a `queued` job claimable from `now`, once: if a job of this
    /// kind already works on `subject`, that one is returned unchanged. `timeLimit` is how long
    /// the job may take over all its runs before it fails (nil: no limit).
    func enqueue(kind: JobKind, subject: String, maxAttempts: Int, timeLimit: TimeInterval?, now: Date) async throws -> Job

    /// Leases the oldest claimable job: `queued` with `runAfter <= now`, or `running` with an
    /// expired lease (its worker died). Increments `attempts`. A job whose attempts are used
    /// up when its lease expired, or whose deadline has passed, is failed instead of claimed.
    func claim(workerID: String, kinds: [JobKind], leaseDuration: TimeInterval, now: Date) async throws -> Job?
    /// Extends the lease and records progress. Returns false if the worker no longer owns the
    /// job (lease lost), in which case the worker must stop working on it.
    func heartbeat(jobID: Int64, workerID: String, progress: Double, leaseDuration: TimeInterval, now: Date) async throws -> Bool
    func succeed(jobID: Int64, workerID: String, now: Date) async throws
    /// `retryAt == nil` fails the job for good; otherwise it goes back to `queued` until then.
    func fail(jobID: Int64, workerID: String, error: String, retryAt: Date?, now: Date) async throws
    /// Jobs currently `running` whose lease has expired (used for cleanup of their temp files).
    func expiredLeases(now: Date) async throws -> [Job]
    /// The attempt finished without error but the work is not done (a provider still
    /// rendering): back to `queued`, claimable from `runAfter`, without counting the attempt.
    /// `progress` nil keeps the stored one. A no-op unless `workerID` holds the lease.
    func reschedule(jobID: Int64, workerID: String, runAfter: Date, progress: Double?, now: Date) async throws
    /// A round of recurring work went well: back to `queued`, claimable from `runAfter`, with
    /// no attempts used and no last error, as if newly recorded. A no-op unless `workerID`
    /// holds the lease.
    func recur(jobID: Int64, workerID: String, runAfter: Date, now: Date) async throws
    /// Puts a running job back to `queued`, claimable at once, without counting the attempt
    /// (a graceful shutdown is not the job's fault). A no-op unless `workerID` holds the lease.
    func release(jobID: Int64, workerID: String, reason: String, now: Date) async throws
    /// Ends a queued or running job for good with `reason`, and its post (unless ready) with
    /// it; a running attempt notices at its next heartbeat and stops. Nil when unknown; a job
    /// that already ended is returned unchanged.
    func cancel(jobID: Int64, reason: String, now: Date) async throws -> Job?
    /// Puts a failed job back in the queue with fresh attempts, and its post back to `queued`.
    /// Nil when unknown; a job that has not failed is returned unchanged.
    func retry(jobID: Int64, now: Date) async throws -> Job?
}

extension JobStore {
    /// Jobs of every kind.
    public func jobs(states: [JobState]?, limit: Int) async throws -> [Job] {
        try await jobs(states: states, kinds: nil, limit: limit)
    }

    /// For stores that cannot reset attempts: the next round as a run-again, which refunds
    /// this attempt only.
    public func recur(jobID: Int64, workerID: String, runAfter: Date, now: Date) async throws {
        try await reschedule(jobID: jobID, workerID: workerID, runAfter: runAfter, progress: nil, now: now)
    }

    /// For stores that cannot refund an attempt: a retry that is due at once.
    public func release(jobID: Int64, workerID: String, reason: String, now: Date) async throws {
        try await fail(jobID: jobID, workerID: workerID, error: reason, retryAt: now, now: now)
    }
}
