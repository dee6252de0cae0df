import Foundation
import ReelModels

/// Does the work of one kind of job. The worker owns leasing, heartbeats, retries and
/// bookkeeping; a handler only does the work and says, by what it throws, whether trying
/// again could help.
///
/// A handler must react to task cancellation (a lost lease or a shutdown): the job may already
/// be running somewhere else, so it should stop and leave shared state as it found it.
public protocol JobHandler: Sendable {
    var kind: JobKind { get }
    /// Does one attempt. Returning `.runAgain` says the work goes on and when to look again
    /// (a provider poll); throwing says the attempt failed (see `JobFailure`).
    func run(_ job: Job, context: JobContext) async throws -> JobOutcome
}

/// How an attempt that did not fail ended.
public enum JobOutcome: Sendable, Equatable {
    /// The work is done: the job succeeds.
    case finished
    /// Nothing went wrong but the work is not done (a provider still rendering): the job is
    /// queued again, claimable after this many seconds, and the attempt does not count
    /// against `maxAttempts`. The job's deadline still applies.
    case runAgain(after: TimeInterval)
    /// This round of recurring work is done (a sweep): the job is queued for its next round
    /// after this many seconds with its attempts reset, so only failures in a row (retried
    /// with backoff) can end it, not a few scattered over months.
    case recur(after: TimeInterval)
}

/// What a handler may tell its worker about the attempt it is running.
public struct JobContext: Sendable {
    public let workerID: String
    /// 1 for the first attempt; counts attempts whose worker died too.
    public let attempt: Int
    private let progressSink: @Sendable (Double) async -> Void

    /// `onProgress` receives every reported fraction; the worker's sink only keeps the newest
    /// value, which its heartbeat loop writes to the store at most once per progress interval,
    /// so reporting often is cheap.
    public init(workerID: String, attempt: Int, onProgress: @escaping @Sendable (Double) async -> Void = { _ in }) {
        self.workerID = workerID
        self.attempt = attempt
        self.progressSink = onProgress
    }

    /// Reports how far the job is, 0…1.
    public func reportProgress(_ fraction: Double) async {
        await progressSink(fraction)
    }
}

/// How a handler says why an attempt failed. Any other error is treated as `transient` with
/// its description; a `CancellationError` caused by a lost lease or a shutdown is not recorded
/// as a failure at all.
public enum JobFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input can never work (not a video, a missing source…): failed at once, never retried.
    case invalidInput(String)
    /// Might work next time (a crash, a full disk, a busy database): retried with backoff while
    /// attempts remain.
    case transient(String)

    /// The reason in words a person understands, as stored in the job's `lastError`.
    public var message: String {
        switch self {
        case .invalidInput(let message), .transient(let message): message
        }
    }

    public var description: String { message }
}
