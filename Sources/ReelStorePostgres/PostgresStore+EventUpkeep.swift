import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// The recurring jobs' side of the event log on PostgreSQL: expiry (`events.expire`), the
/// neighbour table's rebuild (`recs.neighbors`) and the length prior it recounts, with the
/// rules SQLite's store follows (`EventUpkeepRules`, `PositiveHistoryCollector`).
extension PostgresStore {
    /// Deletes in chunks of `EventUpkeepRules.expiryChunk`, one transaction each, walking
    /// `watch_events_by_time`: a large backlog never holds row locks for long.
    public func expireEvents(before cutoff: Date) async throws -> Int {
        try await EventUpkeepRules.expireInChunks {
            try await write { connection in
                try await connection.query("""
                    DELETE FROM watch_events WHERE (user_id, event_id) IN
                        (SELECT user_id, event_id FROM watch_events WHERE at < \(cutoff.timeIntervalSince1970) LIMIT \(EventUpkeepRules.expiryChunk))
                    RETURNING 1
                    """, logger: logger).collect().count
            }
        }
    }

    /// One pass over the events in (person, time, id) order, streamed row by row off
    /// `watch_events_by_user_time` (never collected: a million events stay a few megabytes of
    /// post ids), reading only the event types that can be positive.
    public func positiveHistories(maxPerUser: Int, aggregation: any EventAggregation) async throws -> [[Int64]] {
        guard maxPerUser > 0 else { throw StoreError.invalid("a history keeps at least one post, not \(maxPerUser)") }
        return try await read { connection in
            var collector = PositiveHistoryCollector(maxPerUser: maxPerUser, aggregation: aggregation)
            let rows = try await connection.query("""
                SELECT user_id, post_id, type, watched_ms, duration_ms, value FROM watch_events
                WHERE type = ANY(\(aggregation.positiveTypes.map { Int16($0.code) })::smallint[])
                ORDER BY user_id, at, event_id
                """, logger: logger)
            for try await row in rows {
                let (userID, postID, type, watchedMs, durationMs, value) = try row.decode((Int64, Int64, Int, Int?, Int?, Int?).self)
                collector.add(userID: userID, postID: postID, typeCode: type, watchedMs: watchedMs, durationMs: durationMs, value: value)
            }
            return collector.finish()
        }
    }

    /// Rows per INSERT of `replaceNeighbors`: three arrays of this length, one statement.
    static let neighborRowsPerStatement = 50_000

    /// In one transaction: the old rows go, the new ones arrive as `unnest` of three arrays per
    /// chunk. Readers keep seeing the old table (MVCC) until the commit; no lock blocks them.
    public func replaceNeighbors(_ neighbors: [Int64: [Neighbor]]) async throws {
        try await write { connection in
            try await connection.query("DELETE FROM post_neighbors", logger: logger)
            // A post deleted since the events were read would break the foreign keys.
            let mentioned = Array(Set(neighbors.keys).union(neighbors.values.lazy.flatMap { $0.map(\.postID) }))
            let existing = try await connection.query("SELECT id FROM posts WHERE id = ANY(\(mentioned))", logger: logger)
                .collect().map { try $0.decode(Int64.self) }
            let rows = EventUpkeepRules.neighborRows(neighbors, existing: Set(existing))
            for start in stride(from: 0, to: rows.count, by: Self.neighborRowsPerStatement) {
                let chunk = rows[start..<min(start + Self.neighborRowsPerStatement, rows.count)]
                try await connection.query("""
                    INSERT INTO post_neighbors (post_id, neighbor_id, score)
                    SELECT * FROM unnest(\(chunk.map { $0.postID })::bigint[], \(chunk.map { $0.neighborID })::bigint[], \(chunk.map { $0.score })::float8[])
                    """, logger: logger)
            }
        }
    }

    /// Recounted and replaced in one transaction (MVCC: the count never holds up ingest).
    public func rebuildLengthBuckets(edges: [Double]) async throws -> [LengthBucketCount] {
        try await write { connection in
            try await connection.query("DELETE FROM length_prior", logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: """
                INSERT INTO length_prior (bucket, judged, long_views)
                SELECT \(LengthBucketCount.bucketSQL("p.duration", edges: edges)) AS bucket, sum(s.views + s.skips), sum(s.long_views)
                FROM user_post_signals s JOIN posts p ON p.id = s.post_id
                WHERE p.duration > 0 AND s.views + s.skips > 0
                GROUP BY 1
                """), logger: logger)
            return try await Self.lengthBuckets(connection, logger: logger)
        }
    }

    /// The counts as the last rebuild left them (none before the first).
    static func lengthBuckets(_ connection: PostgresConnection, logger: Logger) async throws -> [LengthBucketCount] {
        let rows = try await connection.query("SELECT bucket, judged, long_views FROM length_prior ORDER BY bucket", logger: logger).collect()
        return try rows.map { row in
            let (bucket, judged, longViews) = try row.decode((Int, Int, Int).self)
            return LengthBucketCount(bucket: bucket, judged: judged, longViews: longViews)
        }
    }
}
