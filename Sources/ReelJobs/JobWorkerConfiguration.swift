import Foundation

/// Exponential backoff between attempts: `base × factor^(attempt − 1)`, capped at `maxDelay`.
/// With the defaults: 5 s, 20 s, 80 s, 320 s, then 600 s.
public struct RetryPolicy: Sendable, Equatable {
    public var base: TimeInterval
    public var factor: Double
    public var maxDelay: TimeInterval

    public init(base: TimeInterval = 5, factor: Double = 4, maxDelay: TimeInterval = 600) {
        self.base = base
        self.factor = factor
        self.maxDelay = maxDelay
    }

    /// How long to wait before the attempt after attempt number `attempt` (1-based).
    public func delay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(max(0, attempt - 1))
        let delay = base * pow(max(1, factor), exponent)
        guard delay.isFinite else { return max(0, maxDelay) }
        return max(0, min(maxDelay, delay))
    }
}

public struct JobWorkerConfiguration: Sendable {
    /// Written into each lease; must differ between workers sharing a database.
    public var workerID: String
    /// Jobs run at once. A transcode already uses every core through ffmpeg's threads, so on a
    /// small machine two at once only make both slower.
    public var concurrency: Int
    /// How long a claim lasts without a heartbeat. A worker that dies loses its jobs after this.
    public var leaseDuration: TimeInterval
    /// How often a running job's lease is extended; well under `leaseDuration`.
    public var heartbeatInterval: TimeInterval
    /// How long an idle worker waits before asking the queue again (and after a store error).
    public var pollInterval: TimeInterval
    /// How often an idle worker asks anyway when the store wakes it on new work (PostgreSQL):
    /// for what sends no wake-up — a retry coming due after its backoff, a dead worker's
    /// expired lease, a notification lost while reconnecting.
    public var wakeupPollInterval: TimeInterval
    /// Progress changes reach the store at most this often (piggybacking on a heartbeat).
    public var progressInterval: TimeInterval
    public var retry: RetryPolicy
    /// An attempt still running after this long is stopped and its job failed for good; nil
    /// never stops one. A hung ffmpeg keeps heartbeating, so leases alone cannot catch it.
    public var attemptTimeout: TimeInterval?

    public init(
        workerID: String = JobWorkerConfiguration.makeWorkerID(),
        concurrency: Int = JobWorkerConfiguration.defaultConcurrency,
        leaseDuration: TimeInterval = 30,
        heartbeatInterval: TimeInterval = 5,
        pollInterval: TimeInterval = 0.5,
        wakeupPollInterval: TimeInterval = 2,
        progressInterval: TimeInterval = 1,
        retry: RetryPolicy = RetryPolicy(),
        attemptTimeout: TimeInterval? = 3600
    ) {
        self.attemptTimeout = attemptTimeout
        self.workerID = workerID
        self.concurrency = concurrency
        self.leaseDuration = leaseDuration
        self.heartbeatInterval = heartbeatInterval
        self.pollInterval = pollInterval
        self.wakeupPollInterval = wakeupPollInterval
        self.progressInterval = progressInterval
        self.retry = retry
    }

    /// 1 on two cores or fewer, otherwise half the cores.
    public static var defaultConcurrency: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores <= 2 ? 1 : cores / 2
    }

    /// `<hostname>-<pid>-<random>`: readable in `reelhouse jobs`, unique across restarts.
    public static func makeWorkerID() -> String {
        let process = ProcessInfo.processInfo
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(process.hostName)-\(process.processIdentifier)-\(random)"
    }
}
