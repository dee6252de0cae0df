import Foundation
import GRDB
import ReelModels
import ReelStore

/// The recurring jobs' side of the event log: expiry (`events.expire`) and the neighbour
/// table's rebuild (`recs.neighbors`).
extension SQLiteStore {
    public func expireEvents(before cutoff: Date) async throws -> Int {
        let seconds = cutoff.timeIntervalSince1970
        return try await EventUpkeepRules.expireInChunks {
            try await write { db in
                try db.execute(sql: """
                    DELETE FROM watch_events WHERE (user_id, event_id) IN
                        (SELECT user_id, event_id FROM watch_events WHERE at < ? LIMIT ?)
                    """, arguments: [seconds, EventUpkeepRules.expiryChunk])
                return db.changesCount
            }
        }
    }

    /// One pass over the events by person and time (`watch_events_by_user_time`), reading only
    /// the event types that can be positive and keeping, per person, plain arrays of post ids:
    /// a million events cost a few megabytes, never a million row objects.
    public func positiveHistories(maxPerUser: Int, aggregation: any EventAggregation) async throws -> [[Int64]] {
        guard maxPerUser > 0 else { throw StoreError.invalid("a history keeps at least one post, not \(maxPerUser)") }
        return try await read { db in
            var collector = PositiveHistoryCollector(maxPerUser: maxPerUser, aggregation: aggregation)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT user_id, post_id, type, watched_ms, duration_ms, value FROM watch_events INDEXED BY watch_events_by_user_time
                WHERE type IN (\(aggregation.positiveTypes.map { String($0.code) }.joined(separator: ", ")))
                ORDER BY user_id, at
                """)
            while let row = try rows.next() {
                collector.add(userID: row[0], postID: row[1], typeCode: row[2], watchedMs: row[3], durationMs: row[4], value: row[5])
            }
            return collector.finish()
        }
    }

    /// Rows per INSERT of `replaceNeighbors`: 3 parameters each, far under SQLite's limit.
    static let neighborRowsPerStatement = 200

    public func replaceNeighbors(_ neighbors: [Int64: [Neighbor]]) async throws {
        try await write { db in try Self.writeNeighbors(db, neighbors) }
    }

    /// `replaceNeighbors` inside the caller's transaction, built the way a bulk load is
    /// cheapest: the old rows go at once (a DELETE without WHERE truncates), the secondary index
    /// is dropped and rebuilt from its own DDL after the rows went in in primary-key order with
    /// multi-row INSERTs. Readers never see the gap. A million events give a few million rows:
    /// row-by-row random inserts into two B-trees took minutes.
    static func writeNeighbors(_ db: Database, _ neighbors: [Int64: [Neighbor]]) throws {
        try db.execute(sql: "DELETE FROM post_neighbors")
        let indexes = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'post_neighbors' AND sql IS NOT NULL"
        ).map { (name: $0["name"] as String, sql: $0["sql"] as String) }
        for index in indexes { try db.execute(sql: "DROP INDEX \(index.name)") }
        // A post deleted since the events were read would break the foreign keys.
        let existing = try Set(Int64.fetchAll(db, sql: "SELECT id FROM posts"))
        var values: [DatabaseValue] = []
        func flush(_ rows: Int) throws {
            guard rows > 0 else { return }
            let statement = try db.cachedStatement(sql: "INSERT INTO post_neighbors (post_id, neighbor_id, score) VALUES "
                + Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", "))
            try statement.execute(arguments: StatementArguments(values))
            values.removeAll(keepingCapacity: true)
        }
        for row in EventUpkeepRules.neighborRows(neighbors, existing: existing) {
            values += [row.postID.databaseValue, row.neighborID.databaseValue, row.score.databaseValue]
            if values.count == neighborRowsPerStatement * 3 { try flush(neighborRowsPerStatement) }
        }
        try flush(values.count / 3)
        for index in indexes { try db.execute(sql: index.sql) }
    }
}
