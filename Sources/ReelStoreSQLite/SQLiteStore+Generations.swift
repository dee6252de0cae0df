import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore: GenerationStore {
    public func createGeneration(
        _ new: NewGeneration, job: GenerationJobLimits, dailyLimit: Int, dayStart: Date, now: Date
    ) async throws -> Generation {
        try await write { db in
            // Counted and inserted in one immediate transaction, so two requests at once cannot
            // both take the last slot.
            let used = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM generations WHERE user_id = ? AND created_at >= ?",
                arguments: [new.userID, RowDecoding.seconds(dayStart)]
            ) ?? 0
            guard used < dailyLimit else {
                throw StoreError.conflict("the daily limit of \(dailyLimit) generations is used up")
            }
            let seconds = RowDecoding.seconds(now)
            try db.execute(
                sql: """
                    INSERT INTO generations (user_id, provider, prompt, style, seconds, width, height, state, next_poll_at,
                                             parent_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)
                    """,
                arguments: [new.userID, new.provider, new.prompt, new.style, new.seconds, new.width, new.height, seconds,
                            new.parentID, seconds, seconds]
            )
            let generation = try Self.fetchGeneration(db, id: db.lastInsertedRowID)
            _ = try Self.enqueue(
                db, kind: .generation, subject: String(generation.id), maxAttempts: job.maxAttempts, timeLimit: job.timeLimit, now: now
            )
            return generation
        }
    }

    public func generation(id: Int64) async throws -> Generation? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM generations WHERE id = ?", arguments: [id]).map(Self.decodeGeneration) }
    }

    public func generations(userID: Int64, limit: Int) async throws -> [Generation] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM generations WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
                arguments: [userID, max(1, limit)]
            ).map(Self.decodeGeneration)
        }
    }

    public func saveGeneration(_ generation: Generation, now: Date) async throws -> Generation {
        try await write { db in
            try Self.update(db, generation, now: now)
            return try Self.fetchGeneration(db, id: generation.id)
        }
    }

    public func saveGenerationStep(_ generation: Generation, now: Date) async throws -> Generation? {
        try await write { db in
            guard try Self.fetchGeneration(db, id: generation.id).state.isActive else { return nil }
            try Self.update(db, generation, now: now)
            return try Self.fetchGeneration(db, id: generation.id)
        }
    }

    private static func update(_ db: Database, _ generation: Generation, now: Date) throws {
        try db.execute(
            sql: """
                UPDATE generations SET state = ?, progress = ?, provider_job_id = ?, failure_reason = ?, attempts = ?,
                    polls = ?, submitted_at = ?, post_id = ?, prompt = ?, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                generation.state.rawValue, generation.progress, generation.providerJobID, generation.failureReason,
                generation.attempts, generation.polls, generation.submittedAt.map(RowDecoding.seconds), generation.postID,
                generation.prompt, RowDecoding.seconds(now), generation.id,
            ]
        )
    }

    static func fetchGeneration(_ db: Database, id: Int64) throws -> Generation {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM generations WHERE id = ?", arguments: [id]) else {
            throw StoreError.notFound("generation \(id)")
        }
        return try decodeGeneration(row)
    }

    static func decodeGeneration(_ row: Row) throws -> Generation {
        let id: Int64 = row["id"]
        return Generation(
            id: id, userID: row["user_id"], provider: row["provider"], prompt: row["prompt"], style: row["style"],
            seconds: row["seconds"], width: row["width"], height: row["height"],
            state: try RowDecoding.enumValue(row["state"], GenerationState.self, what: "generation \(id) state"),
            progress: row["progress"], providerJobID: row["provider_job_id"], failureReason: row["failure_reason"],
            attempts: row["attempts"], polls: row["polls"],
            submittedAt: (row["submitted_at"] as Double?).map(RowDecoding.date), parentID: row["parent_id"],
            postID: row["post_id"], createdAt: RowDecoding.date(row["created_at"]), updatedAt: RowDecoding.date(row["updated_at"])
        )
    }
}
