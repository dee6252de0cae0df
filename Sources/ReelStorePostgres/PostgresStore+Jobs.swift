import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// The job queue on PostgreSQL: the answers of SQLite's store, with row locks in place of
/// SQLite's single writer. A claim locks its candidate `FOR UPDATE SKIP LOCKED`, so workers on
/// many nodes claim different jobs at once instead of queueing on one row; every change that
/// makes a job claimable sends `NOTIFY reelhouse_jobs` (delivered at commit) for `jobWakeups`.
extension PostgresStore: JobStore {
    /// The notification channel of new or newly claimable work; the payload is the job's kind.
    public static let jobChannel = "reelhouse_jobs"

    static let jobColumns = """
        id, kind, post_id, subject, state, attempts, max_attempts, progress, last_error, lease_owner,
        lease_expires_at, run_after, created_at, updated_at, started_at, deadline_at, time_limit
        """

    public func job(id: Int64) async throws -> Job? {
        try await read { connection in try await Self.fetchJob(connection, id: id, logger: logger) }
    }

    /// Newest first, as `reelhouse jobs` lists them.
    public func jobs(states: [JobState]?, kinds: [JobKind]?, limit: Int) async throws -> [Job] {
        let states = states?.map(\.rawValue)
        let kinds = kinds?.map(\.rawValue)
        return try await read { connection in
            try await connection.query("""
                SELECT \(unescaped: Self.jobColumns) FROM jobs
                WHERE (\(states)::text[] IS NULL OR state = ANY(\(states)::text[]))
                  AND (\(kinds)::text[] IS NULL OR kind = ANY(\(kinds)::text[]))
                ORDER BY id DESC LIMIT \(max(0, limit))
                """, logger: logger).collect().map(Self.job)
        }
    }

    /// Oldest first.
    public func jobs(postID: Int64) async throws -> [Job] {
        try await read { connection in
            try await connection.query(
                "SELECT \(unescaped: Self.jobColumns) FROM jobs WHERE post_id = \(postID) ORDER BY id", logger: logger
            ).collect().map(Self.job)
        }
    }

    /// Adds a `queued` job, claimable from `now` (as `SQLiteStore.enqueue(kind:postID:…)`).
    public func enqueue(kind: JobKind, postID: Int64?, maxAttempts: Int, now: Date) async throws -> Job {
        try await write { connection in
            try await Self.enqueue(connection, kind: kind, postID: postID, maxAttempts: maxAttempts, now: now, logger: logger)
        }
    }

    public func job(kind: JobKind, subject: String) async throws -> Job? {
        try await read { connection in
            try await connection.query(
                "SELECT \(unescaped: Self.jobColumns) FROM jobs WHERE kind = \(kind.rawValue) AND subject = \(subject)", logger: logger
            ).collect().first.map(Self.job)
        }
    }

    /// Once per (kind, subject), even when nodes race: the unique index decides, and the loser
    /// gets the winner's job.
    public func enqueue(kind: JobKind, subject: String, maxAttempts: Int, timeLimit: TimeInterval?, now: Date) async throws -> Job {
        try await write { connection in
            try await Self.enqueue(
                connection, kind: kind, subject: subject, maxAttempts: maxAttempts, timeLimit: timeLimit, now: now, logger: logger
            )
        }
    }

    /// In one transaction: fails the expired jobs of `kinds` that have no attempt left (and
    /// their posts) and those past their deadline, then leases the oldest claimable one. Rows
    /// another claimer holds are skipped, not waited for.
    public func claim(workerID: String, kinds: [JobKind], leaseDuration: TimeInterval, now: Date) async throws -> Job? {
        guard !kinds.isEmpty else { return nil }
        let seconds = now.timeIntervalSince1970
        let kindNames = kinds.map(\.rawValue)
        return try await write { connection in
            let exhausted = try await connection.query("""
                SELECT \(unescaped: Self.jobColumns) FROM jobs
                WHERE state = 'running' AND lease_expires_at <= \(seconds) AND attempts >= max_attempts AND kind = ANY(\(kindNames))
                FOR UPDATE SKIP LOCKED
                """, logger: logger).collect().map(Self.job)
            for job in exhausted {
                let reason = "worker stopped responding during attempt \(job.attempts) of \(job.maxAttempts)"
                try await Self.finishFailed(connection, job: job, reason: reason, now: seconds, logger: logger)
            }
            // Never active forever: polled or retried work past its deadline ends here.
            let overdue = try await connection.query("""
                SELECT \(unescaped: Self.jobColumns) FROM jobs
                WHERE deadline_at <= \(seconds) AND kind = ANY(\(kindNames))
                  AND (state = 'queued' OR (state = 'running' AND lease_expires_at <= \(seconds)))
                FOR UPDATE SKIP LOCKED
                """, logger: logger).collect()
            for row in overdue {
                let limit = try row.makeRandomAccess()["time_limit"].decode(Double?.self) ?? 0
                let reason = "not finished within \(Self.describe(seconds: limit)), so it was stopped"
                try await Self.finishFailed(connection, job: try Self.job(row), reason: reason, now: seconds, logger: logger)
            }
            let claimed = try await connection.query("""
                UPDATE jobs SET state = 'running', lease_owner = \(workerID), lease_expires_at = \(seconds + leaseDuration),
                                attempts = attempts + 1, progress = CASE WHEN state = 'queued' THEN progress ELSE 0 END,
                                updated_at = \(seconds), started_at = \(seconds)
                WHERE id = (
                    SELECT id FROM jobs
                    WHERE kind = ANY(\(kindNames)) AND state IN ('queued', 'running')
                      AND ((state = 'queued' AND run_after <= \(seconds)) OR (state = 'running' AND lease_expires_at <= \(seconds)))
                    ORDER BY created_at, id
                    LIMIT 1
                    FOR UPDATE SKIP LOCKED
                )
                RETURNING \(unescaped: Self.jobColumns)
                """, logger: logger).collect()
            return try claimed.first.map(Self.job)
        }
    }

    /// Extends the lease and records progress (clamped to 0…1). False when `workerID` no longer
    /// holds the job: it was reclaimed after its lease expired, finished, or deleted with its post.
    public func heartbeat(jobID: Int64, workerID: String, progress: Double, leaseDuration: TimeInterval, now: Date) async throws -> Bool {
        let seconds = now.timeIntervalSince1970
        let progress = progress.isFinite ? min(1, max(0, progress)) : 0
        return try await write { connection in
            let rows = try await connection.query("""
                UPDATE jobs SET lease_expires_at = \(seconds + leaseDuration), progress = \(progress), updated_at = \(seconds)
                WHERE id = \(jobID) AND state = 'running' AND lease_owner = \(workerID)
                RETURNING id
                """, logger: logger).collect()
            return !rows.isEmpty
        }
    }

    /// Marks the job `succeeded`; a no-op unless `workerID` still holds the lease.
    public func succeed(jobID: Int64, workerID: String, now: Date) async throws {
        try await write { connection in
            _ = try await connection.query("""
                UPDATE jobs SET state = 'succeeded', progress = 1, lease_owner = NULL, lease_expires_at = NULL,
                                updated_at = \(now.timeIntervalSince1970)
                WHERE id = \(jobID) AND state = 'running' AND lease_owner = \(workerID)
                """, logger: logger)
        }
    }

    /// A no-op unless `workerID` still holds the lease. `retryAt == nil`, or no attempt left:
    /// `failed` for good, and the post (unless already `ready`) becomes `failed` with `error`.
    /// Otherwise the job is `queued` again, claimable from `retryAt`.
    public func fail(jobID: Int64, workerID: String, error: String, retryAt: Date?, now: Date) async throws {
        let seconds = now.timeIntervalSince1970
        try await write { connection in
            guard let job = try await Self.fetchJob(connection, id: jobID, locking: true, logger: logger),
                  job.state == .running, job.leaseOwner == workerID else { return }
            if let retryAt, job.attempts < job.maxAttempts {
                try await connection.query("""
                    UPDATE jobs SET state = 'queued', run_after = \(retryAt.timeIntervalSince1970), last_error = \(error),
                                    progress = 0, lease_owner = NULL, lease_expires_at = NULL, updated_at = \(seconds)
                    WHERE id = \(jobID)
                    """, logger: logger)
                try await Self.notifyWork(connection, kind: job.kind, logger: logger)
            } else {
                try await Self.finishFailed(connection, job: job, reason: error, now: seconds, logger: logger)
            }
        }
    }

    /// The attempt went well but the work goes on: queued again from `runAfter`, the attempt
    /// refunded so only failures use up attempts. A no-op unless `workerID` holds the lease.
    public func reschedule(jobID: Int64, workerID: String, runAfter: Date, progress: Double?, now: Date) async throws {
        let progress = progress.map { $0.isFinite ? min(1, max(0, $0)) : 0 }
        try await requeue { connection in
            try await connection.query("""
                UPDATE jobs SET state = 'queued', attempts = GREATEST(attempts - 1, 0), run_after = \(runAfter.timeIntervalSince1970),
                                progress = COALESCE(\(progress)::double precision, progress),
                                lease_owner = NULL, lease_expires_at = NULL, updated_at = \(now.timeIntervalSince1970)
                WHERE id = \(jobID) AND state = 'running' AND lease_owner = \(workerID)
                RETURNING kind
                """, logger: logger)
        }
    }

    /// The round went well and the work recurs: queued from `runAfter` with attempts and last
    /// error cleared, so earlier rounds' failures do not add up to a final one.
    public func recur(jobID: Int64, workerID: String, runAfter: Date, now: Date) async throws {
        try await requeue { connection in
            try await connection.query("""
                UPDATE jobs SET state = 'queued', attempts = 0, last_error = NULL, run_after = \(runAfter.timeIntervalSince1970),
                                progress = 0, lease_owner = NULL, lease_expires_at = NULL, updated_at = \(now.timeIntervalSince1970)
                WHERE id = \(jobID) AND state = 'running' AND lease_owner = \(workerID)
                RETURNING kind
                """, logger: logger)
        }
    }

    /// Back in the queue, claimable at once, without counting the attempt: the worker is
    /// shutting down and the job did nothing wrong.
    public func release(jobID: Int64, workerID: String, reason: String, now: Date) async throws {
        let seconds = now.timeIntervalSince1970
        try await requeue { connection in
            try await connection.query("""
                UPDATE jobs SET state = 'queued', attempts = GREATEST(attempts - 1, 0), run_after = \(seconds), last_error = \(reason),
                                progress = 0, lease_owner = NULL, lease_expires_at = NULL, updated_at = \(seconds)
                WHERE id = \(jobID) AND state = 'running' AND lease_owner = \(workerID)
                RETURNING kind
                """, logger: logger)
        }
    }

    /// Runs an UPDATE … RETURNING kind that puts a job back in the queue, and wakes workers of
    /// that kind when it changed a row.
    private func requeue(_ update: (PostgresConnection) async throws -> PostgresRowSequence) async throws {
        try await write { connection in
            let rows = try await update(connection).collect()
            if let row = rows.first, let kind = JobKind(rawValue: try row.decode(String.self)) {
                try await Self.notifyWork(connection, kind: kind, logger: logger)
            }
        }
    }

    public func cancel(jobID: Int64, reason: String, now: Date) async throws -> Job? {
        try await write { connection in
            guard let job = try await Self.fetchJob(connection, id: jobID, locking: true, logger: logger) else { return nil }
            guard !job.state.isTerminal else { return job }
            // The lease owner's next heartbeat finds the job no longer running and stops it.
            try await Self.finishFailed(connection, job: job, reason: reason, now: now.timeIntervalSince1970, logger: logger)
            return try await Self.fetchJob(connection, id: jobID, logger: logger)
        }
    }

    public func retry(jobID: Int64, now: Date) async throws -> Job? {
        let seconds = now.timeIntervalSince1970
        return try await write { connection in
            guard let job = try await Self.fetchJob(connection, id: jobID, locking: true, logger: logger) else { return nil }
            guard job.state == .failed else { return job }
            try await connection.query("""
                UPDATE jobs SET state = 'queued', attempts = 0, run_after = \(seconds), progress = 0, lease_owner = NULL,
                                lease_expires_at = NULL, started_at = NULL, updated_at = \(seconds),
                                deadline_at = CASE WHEN time_limit IS NULL THEN NULL ELSE \(seconds) + time_limit END
                WHERE id = \(jobID)
                """, logger: logger)
            if let postID = job.postID {
                try await connection.query(
                    "UPDATE posts SET status = 'queued', failure_reason = NULL WHERE id = \(postID) AND status = 'failed'",
                    logger: logger
                )
            }
            if job.kind == .generation, let generationID = job.subject.flatMap({ Int64($0) }) {
                // Submitted afresh: the provider's old job is not trusted again.
                try await connection.query("""
                    UPDATE generations SET state = 'queued', failure_reason = NULL, provider_job_id = NULL, progress = 0, polls = 0,
                                           updated_at = \(seconds)
                    WHERE id = \(generationID) AND state = 'failed'
                    """, logger: logger)
            }
            try await Self.notifyWork(connection, kind: job.kind, logger: logger)
            return try await Self.fetchJob(connection, id: jobID, logger: logger)
        }
    }

    public func expiredLeases(now: Date) async throws -> [Job] {
        try await read { connection in
            try await connection.query("""
                SELECT \(unescaped: Self.jobColumns) FROM jobs
                WHERE state = 'running' AND lease_expires_at <= \(now.timeIntervalSince1970) ORDER BY id
                """, logger: logger).collect().map(Self.job)
        }
    }

    // MARK: - Helpers inside a transaction

    static func enqueue(
        _ connection: PostgresConnection, kind: JobKind, postID: Int64?, maxAttempts: Int, now: Date, logger: Logger
    ) async throws -> Job {
        let seconds = now.timeIntervalSince1970
        let rows = try await connection.query("""
            INSERT INTO jobs (kind, post_id, state, attempts, max_attempts, progress, run_after, created_at, updated_at)
            VALUES (\(kind.rawValue), \(postID), 'queued', 0, \(max(1, maxAttempts)), 0, \(seconds), \(seconds), \(seconds))
            RETURNING \(unescaped: jobColumns)
            """, logger: logger).collect()
        guard let row = rows.first else { throw StoreError.corrupt("job insert returned no row") }
        try await notifyWork(connection, kind: kind, logger: logger)
        return try job(row)
    }

    static func enqueue(
        _ connection: PostgresConnection, kind: JobKind, subject: String, maxAttempts: Int, timeLimit: TimeInterval?, now: Date,
        logger: Logger
    ) async throws -> Job {
        let seconds = now.timeIntervalSince1970
        let inserted = try await connection.query("""
            INSERT INTO jobs (kind, subject, state, attempts, max_attempts, progress, run_after, created_at, updated_at,
                              time_limit, deadline_at)
            VALUES (\(kind.rawValue), \(subject), 'queued', 0, \(max(1, maxAttempts)), 0, \(seconds), \(seconds), \(seconds),
                    \(timeLimit), \(timeLimit.map { seconds + $0 }))
            ON CONFLICT (kind, subject) WHERE subject IS NOT NULL DO NOTHING
            RETURNING \(unescaped: jobColumns)
            """, logger: logger).collect()
        if let row = inserted.first {
            try await notifyWork(connection, kind: kind, logger: logger)
            return try job(row)
        }
        guard let existing = try await connection.query(
            "SELECT \(unescaped: jobColumns) FROM jobs WHERE kind = \(kind.rawValue) AND subject = \(subject)", logger: logger
        ).collect().first else {
            throw StoreError.corrupt("job \(kind.rawValue) \(subject) conflicted but is not there")
        }
        return try job(existing)
    }

    static func fetchJob(_ connection: PostgresConnection, id: Int64, locking: Bool = false, logger: Logger) async throws -> Job? {
        try await connection.query(
            "SELECT \(unescaped: jobColumns) FROM jobs WHERE id = \(id)\(unescaped: locking ? " FOR UPDATE" : "")", logger: logger
        ).collect().first.map(job)
    }

    /// Wakes listening workers once the transaction commits (NOTIFY is transactional).
    static func notifyWork(_ connection: PostgresConnection, kind: JobKind, logger: Logger) async throws {
        try await connection.query("SELECT pg_notify(\(jobChannel), \(kind.rawValue))", logger: logger)
    }

    /// Fails the job for good and shows the reason on what it worked on, so neither a post nor
    /// a generation stays "processing" after the job's end (as SQLite's store).
    static func finishFailed(_ connection: PostgresConnection, job: Job, reason: String, now: Double, logger: Logger) async throws {
        try await connection.query("""
            UPDATE jobs SET state = 'failed', last_error = \(reason), lease_owner = NULL, lease_expires_at = NULL, updated_at = \(now)
            WHERE id = \(job.id)
            """, logger: logger)
        if let postID = job.postID {
            try await connection.query(
                "UPDATE posts SET status = 'failed', failure_reason = \(reason) WHERE id = \(postID) AND status != 'ready'",
                logger: logger
            )
        }
        if job.kind == .generation, let generationID = job.subject.flatMap({ Int64($0) }) {
            try await connection.query("""
                UPDATE generations SET state = 'failed', failure_reason = \(reason), updated_at = \(now)
                WHERE id = \(generationID) AND state IN ('queued', 'running')
                """, logger: logger)
        }
    }

    /// "5 seconds", "20 minutes": a time limit as a person reads it.
    static func describe(seconds: Double) -> String {
        seconds >= 120 ? "\(Int(seconds / 60)) minutes" : "\(Int(seconds)) seconds"
    }

    /// A row of `jobColumns`.
    static func job(_ row: PostgresRow) throws -> Job {
        let columns = row.makeRandomAccess()
        let id = try columns["id"].decode(Int64.self)
        func date(_ name: String) throws -> Date? { try columns[name].decode(Double?.self).map(Date.init(timeIntervalSince1970:)) }
        func required(_ name: String) throws -> Date { Date(timeIntervalSince1970: try columns[name].decode(Double.self)) }
        let kind = try columns["kind"].decode(String.self)
        let state = try columns["state"].decode(String.self)
        guard let jobKind = JobKind(rawValue: kind) else { throw StoreError.corrupt("job \(id) kind has unknown value \(kind)") }
        guard let jobState = JobState(rawValue: state) else { throw StoreError.corrupt("job \(id) state has unknown value \(state)") }
        return Job(
            id: id, kind: jobKind, postID: try columns["post_id"].decode(Int64?.self), state: jobState,
            attempts: Int(try columns["attempts"].decode(Int32.self)), maxAttempts: Int(try columns["max_attempts"].decode(Int32.self)),
            progress: try columns["progress"].decode(Double.self), lastError: try columns["last_error"].decode(String?.self),
            leaseOwner: try columns["lease_owner"].decode(String?.self), leaseExpiresAt: try date("lease_expires_at"),
            runAfter: try required("run_after"), createdAt: try required("created_at"), updatedAt: try required("updated_at"),
            startedAt: try date("started_at"), subject: try columns["subject"].decode(String?.self), deadlineAt: try date("deadline_at")
        )
    }
}
