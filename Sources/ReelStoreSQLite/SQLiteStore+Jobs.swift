import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    public func job(id: Int64) async throws -> Job? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(RowDecoding.job) }
    }

    /// Newest first, as `reelhouse jobs` lists them.
    public func jobs(states: [JobState]?, kinds: [JobKind]?, limit: Int) async throws -> [Job] {
        try await read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let states {
                conditions.append("state IN (\(Self.placeholders(states.count)))")
                arguments += StatementArguments(states.map(\.rawValue))
            }
            if let kinds {
                conditions.append("kind IN (\(Self.placeholders(kinds.count)))")
                arguments += StatementArguments(kinds.map(\.rawValue))
            }
            var sql = "SELECT * FROM jobs"
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY id DESC LIMIT ?"
            arguments += [max(0, limit)]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(RowDecoding.job)
        }
    }

    /// Oldest first.
    public func jobs(postID: Int64) async throws -> [Job] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM jobs WHERE post_id = ? ORDER BY id", arguments: [postID]).map(RowDecoding.job)
        }
    }

    /// Adds a `queued` job, claimable from `now`.
    public func enqueue(kind: JobKind, postID: Int64?, maxAttempts: Int, now: Date) async throws -> Job {
        try await write { db in try Self.enqueue(db, kind: kind, postID: postID, maxAttempts: maxAttempts, now: now) }
    }

    public func job(kind: JobKind, subject: String) async throws -> Job? {
        try await read { db in try Self.fetchJob(db, kind: kind, subject: subject) }
    }

    public func enqueue(kind: JobKind, subject: String, maxAttempts: Int, timeLimit: TimeInterval?, now: Date) async throws -> Job {
        try await write { db in
            try Self.enqueue(db, kind: kind, subject: subject, maxAttempts: maxAttempts, timeLimit: timeLimit, now: now)
        }
    }

    /// In one IMMEDIATE transaction: fails the expired jobs of `kinds` that have no attempt left
    /// (and their posts), then leases the oldest claimable one to `workerID`.
    public func claim(workerID: String, kinds: [JobKind], leaseDuration: TimeInterval, now: Date) async throws -> Job? {
        guard !kinds.isEmpty else { return nil }
        let nowSeconds = RowDecoding.seconds(now)
        let kindList = Self.placeholders(kinds.count)
        let kindArguments = StatementArguments(kinds.map(\.rawValue))
        return try await write { db in
            let exhausted = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM jobs
                    WHERE state = 'running' AND lease_expires_at <= ? AND attempts >= max_attempts AND kind IN (\(kindList))
                    """,
                arguments: [nowSeconds] + kindArguments
            ).map(RowDecoding.job)
            for job in exhausted {
                let reason = "worker stopped responding during attempt \(job.attempts) of \(job.maxAttempts)"
                try Self.finishFailed(db, job: job, reason: reason, now: nowSeconds)
            }
            // Never active forever: polled or retried work past its deadline ends here.
            let overdue = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM jobs
                    WHERE deadline_at <= ? AND kind IN (\(kindList))
                      AND (state = 'queued' OR (state = 'running' AND lease_expires_at <= ?))
                    """,
                arguments: [nowSeconds] + kindArguments + [nowSeconds]
            )
            for row in overdue {
                let limit: Double = row["time_limit"] ?? 0
                let reason = "not finished within \(Self.describe(seconds: limit)), so it was stopped"
                try Self.finishFailed(db, job: try RowDecoding.job(row), reason: reason, now: nowSeconds)
            }

            let candidate = try Row.fetchOne(
                db,
                sql: """
                    SELECT * FROM jobs
                    WHERE kind IN (\(kindList))
                      AND ((state = 'queued' AND run_after <= ?) OR (state = 'running' AND lease_expires_at <= ?))
                    ORDER BY created_at, id
                    LIMIT 1
                    """,
                arguments: kindArguments + [nowSeconds, nowSeconds]
            ).map(RowDecoding.job)
            guard let candidate else { return nil }
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1,
                                    progress = CASE WHEN state = 'queued' THEN progress ELSE 0 END, updated_at = ?,
                                    started_at = ?
                    WHERE id = ?
                    """,
                arguments: [workerID, nowSeconds + leaseDuration, nowSeconds, nowSeconds, candidate.id]
            )
            return try Self.fetchJob(db, id: candidate.id)
        }
    }

    /// Extends the lease and records progress (clamped to 0…1). False when `workerID` no longer
    /// holds the job: it was reclaimed after its lease expired, finished, or deleted with its post.
    public func heartbeat(jobID: Int64, workerID: String, progress: Double, leaseDuration: TimeInterval, now: Date) async throws -> Bool {
        let nowSeconds = RowDecoding.seconds(now)
        let progress = progress.isFinite ? min(1, max(0, progress)) : 0
        return try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET lease_expires_at = ?, progress = ?, updated_at = ?
                    WHERE id = ? AND state = 'running' AND lease_owner = ?
                    """,
                arguments: [nowSeconds + leaseDuration, progress, nowSeconds, jobID, workerID]
            )
            return db.changesCount > 0
        }
    }

    /// Marks the job `succeeded`; a no-op unless `workerID` still holds the lease.
    public func succeed(jobID: Int64, workerID: String, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'succeeded', progress = 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                    WHERE id = ? AND state = 'running' AND lease_owner = ?
                    """,
                arguments: [RowDecoding.seconds(now), jobID, workerID]
            )
        }
    }

    /// A no-op unless `workerID` still holds the lease. `retryAt == nil`, or no attempt left:
    /// `failed` for good, and the post (unless already `ready`) becomes `failed` with `error`.
    /// Otherwise the job is `queued` again, claimable from `retryAt`.
    public func fail(jobID: Int64, workerID: String, error: String, retryAt: Date?, now: Date) async throws {
        let nowSeconds = RowDecoding.seconds(now)
        try await write { db in
            guard let job = try Self.fetchJob(db, id: jobID), job.state == .running, job.leaseOwner == workerID else { return }
            if let retryAt, job.attempts < job.maxAttempts {
                try db.execute(
                    sql: """
                        UPDATE jobs SET state = 'queued', run_after = ?, last_error = ?, progress = 0, lease_owner = NULL,
                                        lease_expires_at = NULL, updated_at = ?
                        WHERE id = ?
                        """,
                    arguments: [RowDecoding.seconds(retryAt), error, nowSeconds, jobID]
                )
            } else {
                try Self.finishFailed(db, job: job, reason: error, now: nowSeconds)
            }
        }
    }

    /// The attempt is over and went well, but the work goes on (a provider still rendering):
    /// queued again from `runAfter`, the attempt refunded so only failures use up attempts.
    public func reschedule(jobID: Int64, workerID: String, runAfter: Date, progress: Double?, now: Date) async throws {
        let progress = progress.map { $0.isFinite ? min(1, max(0, $0)) : 0 }
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'queued', attempts = MAX(attempts - 1, 0), run_after = ?, progress = COALESCE(?, progress),
                                    lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                    WHERE id = ? AND state = 'running' AND lease_owner = ?
                    """,
                arguments: [RowDecoding.seconds(runAfter), progress, RowDecoding.seconds(now), jobID, workerID]
            )
        }
    }

    /// The round went well and the work recurs: queued from `runAfter` with attempts and last
    /// error cleared, so earlier rounds' failures do not add up to a final one.
    public func recur(jobID: Int64, workerID: String, runAfter: Date, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'queued', attempts = 0, last_error = NULL, run_after = ?, progress = 0,
                                    lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                    WHERE id = ? AND state = 'running' AND lease_owner = ?
                    """,
                arguments: [RowDecoding.seconds(runAfter), RowDecoding.seconds(now), jobID, workerID]
            )
        }
    }

    /// Puts a job back in the queue, claimable at once, without counting the attempt: the worker
    /// is shutting down and the job did nothing wrong. A no-op unless `workerID` holds the lease.
    public func release(jobID: Int64, workerID: String, reason: String, now: Date) async throws {
        let nowSeconds = RowDecoding.seconds(now)
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'queued', attempts = MAX(attempts - 1, 0), run_after = ?, last_error = ?,
                                    progress = 0, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                    WHERE id = ? AND state = 'running' AND lease_owner = ?
                    """,
                arguments: [nowSeconds, reason, nowSeconds, jobID, workerID]
            )
        }
    }

    public func cancel(jobID: Int64, reason: String, now: Date) async throws -> Job? {
        try await write { db in
            guard let job = try Self.fetchJob(db, id: jobID) else { return nil }
            guard !job.state.isTerminal else { return job }
            // The lease owner's next heartbeat finds the job no longer running and stops it.
            try Self.finishFailed(db, job: job, reason: reason, now: RowDecoding.seconds(now))
            return try Self.fetchJob(db, id: jobID)
        }
    }

    public func retry(jobID: Int64, now: Date) async throws -> Job? {
        let nowSeconds = RowDecoding.seconds(now)
        return try await write { db in
            guard let job = try Self.fetchJob(db, id: jobID) else { return nil }
            guard job.state == .failed else { return job }
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'queued', attempts = 0, run_after = ?, progress = 0, lease_owner = NULL,
                                    lease_expires_at = NULL, started_at = NULL, updated_at = ?,
                                    deadline_at = CASE WHEN time_limit IS NULL THEN NULL ELSE ? + time_limit END
                    WHERE id = ?
                    """,
                arguments: [nowSeconds, nowSeconds, nowSeconds, jobID]
            )
            if let postID = job.postID {
                try db.execute(
                    sql: "UPDATE posts SET status = 'queued', failure_reason = NULL WHERE id = ? AND status = 'failed'",
                    arguments: [postID]
                )
            }
            if job.kind == .generation, let generationID = job.subject.flatMap({ Int64($0) }) {
                // Submitted afresh: the provider's old job is not trusted again.
                try db.execute(
                    sql: """
                        UPDATE generations SET state = 'queued', failure_reason = NULL, provider_job_id = NULL, progress = 0, polls = 0,
                                               updated_at = ?
                        WHERE id = ? AND state = 'failed'
                        """,
                    arguments: [nowSeconds, generationID]
                )
            }
            return try Self.fetchJob(db, id: jobID)
        }
    }

    public func expiredLeases(now: Date) async throws -> [Job] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM jobs WHERE state = 'running' AND lease_expires_at <= ? ORDER BY id",
                arguments: [RowDecoding.seconds(now)]
            ).map(RowDecoding.job)
        }
    }

    // MARK: - Helpers inside a transaction

    static func enqueue(_ db: Database, kind: JobKind, postID: Int64?, maxAttempts: Int, now: Date) throws -> Job {
        let nowSeconds = RowDecoding.seconds(now)
        try db.execute(
            sql: """
                INSERT INTO jobs (kind, post_id, state, attempts, max_attempts, progress, run_after, created_at, updated_at)
                VALUES (?, ?, 'queued', 0, ?, 0, ?, ?, ?)
                """,
            arguments: [kind.rawValue, postID, max(1, maxAttempts), nowSeconds, nowSeconds, nowSeconds]
        )
        guard let job = try fetchJob(db, id: db.lastInsertedRowID) else {
            throw StoreError.corrupt("job vanished inside its own transaction")
        }
        return job
    }

    static func enqueue(
        _ db: Database, kind: JobKind, subject: String, maxAttempts: Int, timeLimit: TimeInterval?, now: Date
    ) throws -> Job {
        if let existing = try fetchJob(db, kind: kind, subject: subject) { return existing }
        let nowSeconds = RowDecoding.seconds(now)
        try db.execute(
            sql: """
                INSERT INTO jobs (kind, subject, state, attempts, max_attempts, progress, run_after, created_at, updated_at,
                                  time_limit, deadline_at)
                VALUES (?, ?, 'queued', 0, ?, 0, ?, ?, ?, ?, ?)
                """,
            arguments: [kind.rawValue, subject, max(1, maxAttempts), nowSeconds, nowSeconds, nowSeconds, timeLimit,
                        timeLimit.map { nowSeconds + $0 }]
        )
        guard let job = try fetchJob(db, id: db.lastInsertedRowID) else {
            throw StoreError.corrupt("job vanished inside its own transaction")
        }
        return job
    }

    static func fetchJob(_ db: Database, kind: JobKind, subject: String) throws -> Job? {
        try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE kind = ? AND subject = ?", arguments: [kind.rawValue, subject])
            .map(RowDecoding.job)
    }

    /// "5 seconds", "20 minutes": a time limit as a person reads it.
    static func describe(seconds: Double) -> String {
        seconds >= 120 ? "\(Int(seconds / 60)) minutes" : "\(Int(seconds)) seconds"
    }

    static func fetchJob(_ db: Database, id: Int64) throws -> Job? {
        try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(RowDecoding.job)
    }

    /// Fails the job for good and shows the reason on what it worked on, so neither a post nor
    /// a generation stays "processing" after the job's end, however it ended (last attempt,
    /// dead worker, deadline, cancel). A post that is already `ready` (published by an attempt
    /// that died before reporting success), or a generation already past its work, is left alone.
    private static func finishFailed(_ db: Database, job: Job, reason: String, now: Double) throws {
        try db.execute(
            sql: """
                UPDATE jobs SET state = 'failed', last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                WHERE id = ?
                """,
            arguments: [reason, now, job.id]
        )
        if let postID = job.postID {
            try db.execute(
                sql: "UPDATE posts SET status = 'failed', failure_reason = ? WHERE id = ? AND status != 'ready'",
                arguments: [reason, postID]
            )
        }
        if job.kind == .generation, let generationID = job.subject.flatMap({ Int64($0) }) {
            try db.execute(
                sql: """
                    UPDATE generations SET state = 'failed', failure_reason = ?, updated_at = ?
                    WHERE id = ? AND state IN ('queued', 'running')
                    """,
                arguments: [reason, now, generationID]
            )
        }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
