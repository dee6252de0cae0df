import Foundation

/// Every kind of background work runs on the one queue (`JobStore`), with the same leases,
/// retries, backoff, deadlines, cancel and retry. A job names what it works on by `postID`
/// (transcode) or by `subject` (the generation id, the upload id, or a fixed name for the
/// recurring upkeep kinds, so there is exactly one of each).
public enum JobKind: String, Codable, Sendable, CaseIterable {
    /// Turn a queued post's source into published media.
    case transcode
    /// One step of a prompt-to-clip generation (submit, or one provider poll); `subject` is the
    /// generation id. "Poll again in N s" is the job run again after N s.
    case generation
    /// A complete tus upload becomes a post (validate, keep, queue its transcode); `subject` is
    /// the upload id. Recorded when the last byte arrives, so a crash cannot lose it.
    case uploadImport = "upload_import"
    /// Removes leftovers of interrupted work (work folders, unpublished media, stale stages);
    /// recurring, one job under a fixed subject.
    case sweep
    /// Deletes incomplete uploads past their `Upload-Expires`; recurring, one job under a
    /// fixed subject.
    case uploadExpiry = "upload_expiry"
    /// Takes expired stories out of the tray and deletes those nothing keeps, with their
    /// media; recurring (every minute), one job under a fixed subject.
    case storiesExpire = "stories.expire"
    /// Deletes watch events older than the `eventRetentionDays` setting (their aggregates stay);
    /// recurring (hourly), one job under a fixed subject.
    case eventsExpire = "events.expire"
    /// Rebuilds For You's item-to-item neighbours from the retained events; recurring (every
    /// ten minutes), one job under a fixed subject.
    case recsNeighbors = "recs.neighbors"
    /// With media in a bucket: aborts multipart uploads and deletes staging objects that a
    /// publisher killed mid-publish left behind (older than a day); recurring (hourly), one job
    /// under a fixed subject.
    case storageSweep = "storage.sweep"

    /// The server's own upkeep rather than someone's work: listings of jobs leave these out
    /// unless asked for by kind, so a person's view of their uploads and generations is not
    /// cluttered by jobs that never end.
    public var isMaintenance: Bool {
        switch self {
        case .sweep, .uploadExpiry, .storiesExpire, .eventsExpire, .recsNeighbors, .storageSweep: true
        case .transcode, .generation, .uploadImport: false
        }
    }

    /// The kinds that are someone's work: what a job listing shows by default.
    public static var work: [JobKind] { allCases.filter { !$0.isMaintenance } }
}

/// queued → running (leased, heartbeating) → succeeded | failed. `failed` is terminal.
public enum JobState: String, Codable, Sendable, CaseIterable {
    case queued
    case running
    case succeeded
    case failed

    public var isTerminal: Bool { self == .succeeded || self == .failed }
}

public struct Job: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64
    public var kind: JobKind
    public var postID: Int64?
    /// What a job without a post works on: a generation id or an upload id (see `JobKind`).
    public var subject: String?
    public var state: JobState
    /// Attempts started so far (a started attempt counts even if its worker died).
    public var attempts: Int
    public var maxAttempts: Int
    /// 0…1 while running, from ffmpeg `-progress`.
    public var progress: Double
    /// The last failure in words a person understands (e.g. the ffmpeg stderr tail).
    public var lastError: String?
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    /// Earliest time the job may be claimed (backoff after a transient failure).
    public var runAfter: Date
    public var createdAt: Date
    public var updatedAt: Date
    /// When the current (or last) attempt was claimed; nil before the first.
    public var startedAt: Date?
    /// The job fails for good if it has not finished by then, however often it asked to run
    /// again (a provider poll) or was retried; nil for none. A retry starts the time limit afresh.
    public var deadlineAt: Date?

    public init(
        id: Int64, kind: JobKind, postID: Int64?, state: JobState, attempts: Int, maxAttempts: Int,
        progress: Double, lastError: String?, leaseOwner: String?, leaseExpiresAt: Date?,
        runAfter: Date, createdAt: Date, updatedAt: Date, startedAt: Date? = nil, subject: String? = nil,
        deadlineAt: Date? = nil
    ) {
        self.startedAt = startedAt
        self.subject = subject
        self.deadlineAt = deadlineAt
        self.id = id
        self.kind = kind
        self.postID = postID
        self.state = state
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.progress = progress
        self.lastError = lastError
        self.leaseOwner = leaseOwner
        self.leaseExpiresAt = leaseExpiresAt
        self.runAfter = runAfter
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension Job {
    /// Seconds left for a running attempt, extrapolated from its progress so far; nil until
    /// there is enough progress to say (the first 2 %, or the first 2 s, are mostly start-up).
    public func estimatedSecondsLeft(now: Date) -> Double? {
        guard state == .running, let startedAt, progress >= 0.02, progress < 1 else { return nil }
        let elapsed = now.timeIntervalSince(startedAt)
        guard elapsed >= 2 else { return nil }
        return (elapsed / progress) * (1 - progress)
    }
}
