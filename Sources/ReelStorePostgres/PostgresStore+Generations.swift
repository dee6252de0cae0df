import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore: GenerationStore {
    static let generationColumns = """
        id, user_id, provider, prompt, style, seconds, width, height, state, progress, provider_job_id, failure_reason,
        attempts, polls, submitted_at, parent_id, post_id, created_at, updated_at
        """

    public func createGeneration(
        _ new: NewGeneration, job: GenerationJobLimits, dailyLimit: Int, dayStart: Date, now: Date
    ) async throws -> Generation {
        try await write { connection in
            // The user's row is locked first, so two requests at once (on any nodes) count in
            // turn and cannot both take the last slot.
            try await Self.requireRow(connection, "SELECT 1 FROM users WHERE id = $1 FOR UPDATE", new.userID, missing: "user \(new.userID)", logger: logger)
            let used = try await connection.query("""
                SELECT count(*) FROM generations WHERE user_id = \(new.userID) AND created_at >= \(dayStart.timeIntervalSince1970)
                """, logger: logger).collect().first?.decode(Int64.self) ?? 0
            guard used < dailyLimit else {
                throw StoreError.conflict("the daily limit of \(dailyLimit) generations is used up")
            }
            let seconds = now.timeIntervalSince1970
            let rows = try await connection.query("""
                INSERT INTO generations (user_id, provider, prompt, style, seconds, width, height, state, next_poll_at,
                                         parent_id, created_at, updated_at)
                VALUES (\(new.userID), \(new.provider), \(new.prompt), \(new.style), \(new.seconds), \(new.width), \(new.height),
                        'queued', \(seconds), \(new.parentID), \(seconds), \(seconds))
                RETURNING \(unescaped: Self.generationColumns)
                """, logger: logger).collect()
            guard let row = rows.first else { throw StoreError.corrupt("generation insert returned no row") }
            let generation = try Self.generation(row)
            _ = try await Self.enqueue(
                connection, kind: .generation, subject: String(generation.id), maxAttempts: job.maxAttempts, timeLimit: job.timeLimit,
                now: now, logger: logger
            )
            return generation
        }
    }

    public func generation(id: Int64) async throws -> Generation? {
        try await read { connection in
            try await connection.query("SELECT \(unescaped: Self.generationColumns) FROM generations WHERE id = \(id)", logger: logger)
                .collect().first.map(Self.generation)
        }
    }

    public func generations(userID: Int64, limit: Int) async throws -> [Generation] {
        try await read { connection in
            try await connection.query("""
                SELECT \(unescaped: Self.generationColumns) FROM generations WHERE user_id = \(userID)
                ORDER BY created_at DESC, id DESC LIMIT \(max(1, limit))
                """, logger: logger).collect().map(Self.generation)
        }
    }

    public func saveGeneration(_ generation: Generation, now: Date) async throws -> Generation {
        try await write { connection in
            guard let saved = try await Self.update(connection, generation, now: now, onlyActive: false, logger: logger) else {
                throw StoreError.notFound("generation \(generation.id)")
            }
            return saved
        }
    }

    public func saveGenerationStep(_ generation: Generation, now: Date) async throws -> Generation? {
        try await write { connection in
            try await Self.update(connection, generation, now: now, onlyActive: true, logger: logger)
        }
    }

    /// Writes every field a person or a step may change; with `onlyActive`, only while the
    /// stored generation is still queued or running (nil otherwise, nothing written).
    private static func update(
        _ connection: PostgresConnection, _ generation: Generation, now: Date, onlyActive: Bool, logger: Logger
    ) async throws -> Generation? {
        let active = GenerationState.allCases.filter(\.isActive).map(\.rawValue)
        let rows = try await connection.query("""
            UPDATE generations SET state = \(generation.state.rawValue), progress = \(generation.progress),
                provider_job_id = \(generation.providerJobID), failure_reason = \(generation.failureReason),
                attempts = \(generation.attempts), polls = \(generation.polls),
                submitted_at = \(generation.submittedAt?.timeIntervalSince1970), post_id = \(generation.postID),
                prompt = \(generation.prompt), updated_at = \(now.timeIntervalSince1970)
            WHERE id = \(generation.id) AND (NOT \(onlyActive) OR state = ANY(\(active)))
            RETURNING \(unescaped: generationColumns)
            """, logger: logger).collect()
        return try rows.first.map(Self.generation)
    }

    static func generation(_ row: PostgresRow) throws -> Generation {
        let columns = row.makeRandomAccess()
        let id = try columns["id"].decode(Int64.self)
        let state = try columns["state"].decode(String.self)
        guard let generationState = GenerationState(rawValue: state) else {
            throw StoreError.corrupt("generation \(id) state has unknown value \(state)")
        }
        return Generation(
            id: id, userID: try columns["user_id"].decode(Int64.self), provider: try columns["provider"].decode(String.self),
            prompt: try columns["prompt"].decode(String.self), style: try columns["style"].decode(String.self),
            seconds: Int(try columns["seconds"].decode(Int32.self)), width: Int(try columns["width"].decode(Int32.self)),
            height: Int(try columns["height"].decode(Int32.self)), state: generationState,
            progress: try columns["progress"].decode(Double.self), providerJobID: try columns["provider_job_id"].decode(String?.self),
            failureReason: try columns["failure_reason"].decode(String?.self), attempts: Int(try columns["attempts"].decode(Int32.self)),
            polls: Int(try columns["polls"].decode(Int32.self)),
            submittedAt: try columns["submitted_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            parentID: try columns["parent_id"].decode(Int64?.self), postID: try columns["post_id"].decode(Int64?.self),
            createdAt: Date(timeIntervalSince1970: try columns["created_at"].decode(Double.self)),
            updatedAt: Date(timeIntervalSince1970: try columns["updated_at"].decode(Double.self))
        )
    }
}
