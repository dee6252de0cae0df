import Foundation
import ReelModels
import ReelStore

/// Upkeep that repeats for as long as workers run (a sweep, an upload expiry), as one job on
/// the queue: recorded once under a fixed subject, so however many processes share the
/// database only one runs it at a time; each round does `work` and asks the queue to run it
/// again after `interval`. A failing round is retried with the queue's backoff like any job.
public struct RecurringJob: JobHandler {
    /// The subject of every recurring job: one job per kind.
    public static let subject = "recurring"

    public let kind: JobKind
    public let interval: TimeInterval
    /// Failed rounds in a row before the job fails for good (and shows so in the job list).
    public var maxAttempts = 5
    private let work: @Sendable () async throws -> Void

    public init(kind: JobKind, every interval: TimeInterval, work: @escaping @Sendable () async throws -> Void) {
        self.kind = kind
        self.interval = interval
        self.work = work
    }

    public func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        try await work()
        return .recur(after: interval)
    }

    /// Makes sure the job exists and is live, for whoever starts workers: records it once
    /// (due at once), and queues afresh one that failed for good (its attempts used up, timed
    /// out, cancelled), since nothing else would ever run it again. Safe to call from every
    /// process at every start.
    @discardableResult
    public func schedule(on store: any JobStore, now: Date) async throws -> Job {
        let job = try await store.enqueue(kind: kind, subject: Self.subject, maxAttempts: maxAttempts, timeLimit: nil, now: now)
        guard job.state == .failed else { return job }
        return try await store.retry(jobID: job.id, now: now) ?? job
    }
}
