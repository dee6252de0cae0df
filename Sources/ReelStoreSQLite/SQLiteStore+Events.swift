import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

/// Watch events in, and the person's own lists out: history and the hidden lists
/// (docs/recommendations-api.md). The recurring jobs' side is `SQLiteStore+EventUpkeep.swift`.
extension SQLiteStore: PersonListBackend {
    public func recordEvents(userID: Int64, _ events: [WatchEvent], aggregation: any EventAggregation) async throws -> EventBatchOutcome {
        if events.isEmpty { return .recorded(accepted: 0, duplicates: 0) }
        return try await write { db in try EventIngest.record(db, userID: userID, events: events, aggregation: aggregation) }
    }

    // MARK: - History

    /// Walks the partial index `user_post_signals_history (user_id, watched_at, post_id)`
    /// backwards from the cursor.
    public func historyRows(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> [HistoryEntry] {
        try await read { db in
            try Self.recentRows(
                db, columns: "post_id, watched_at, views, long_views, skips, watched_ms", table: "user_post_signals",
                time: "watched_at", condition: " AND watched_at IS NOT NULL", userID: userID, after: after, limit: limit
            ).map { row in
                HistoryEntry(
                    postID: row[0], watchedAt: RowDecoding.date(row[1]), views: row[2], longViews: row[3], skips: row[4], watchedMs: row[5], item: nil
                )
            }
        }
    }

    public func clearHistory(userID: Int64) async throws {
        try await write { db in
            for table in ["watch_events", "user_post_signals", "user_affinities"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [userID])
            }
        }
    }

    public func forgetHistory(userID: Int64, postID: Int64) async throws {
        try await write { db in
            let listed = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM user_post_signals WHERE user_id = ? AND post_id = ? AND watched_at IS NOT NULL)
                """, arguments: [userID, postID]) ?? false
            guard listed else { throw StoreError.notFound("post \(postID) in the history") }
            try db.execute(sql: "DELETE FROM watch_events WHERE post_id = ? AND user_id = ?", arguments: [postID, userID])
            try db.execute(sql: "DELETE FROM user_post_signals WHERE user_id = ? AND post_id = ?", arguments: [userID, postID])
        }
    }

    // MARK: - Hidden lists

    public func notInterestedRows(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> [HiddenPostEntry] {
        try await read { db in
            try Self.recentRows(db, columns: "post_id, at", table: "hidden_posts", time: "at", userID: userID, after: after, limit: limit)
                .map { HiddenPostEntry(postID: $0[0], at: RowDecoding.date($0[1]), item: nil) }
        }
    }

    /// A person's post list ordered by (`time`, post id), newest first, walked backwards from the
    /// cursor (`columns` start with the post id, then the time). History and "not interested"
    /// page the same way.
    static func recentRows(
        _ db: Database, columns: String, table: String, time: String, condition: String = "",
        userID: Int64, after: RecentPostCursor?, limit: Int
    ) throws -> [Row] {
        var sql = "SELECT \(columns) FROM \(table) WHERE user_id = ?\(condition)"
        var arguments: StatementArguments = [userID]
        if let after {
            sql += " AND (\(time), post_id) < (?, ?)"
            arguments += [after.at, after.postID]
        }
        sql += " ORDER BY \(time) DESC, post_id DESC LIMIT ?"
        arguments += [limit]
        return try Row.fetchAll(db, sql: sql, arguments: arguments)
    }

    public func undoNotInterested(userID: Int64, postID: Int64) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM hidden_posts WHERE user_id = ? AND post_id = ?", arguments: [userID, postID])
            guard db.changesCount > 0 else { throw StoreError.notFound("post \(postID) in the not interested list") }
        }
    }

    public func hiddenUploaders(userID: Int64) async throws -> [HiddenUploaderEntry] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT uploader, at FROM hidden_uploaders WHERE user_id = ? ORDER BY at DESC, uploader_key",
                arguments: [userID]
            ).map { HiddenUploaderEntry(uploader: $0[0], at: RowDecoding.date($0[1])) }
        }
    }

    public func unhideUploader(userID: Int64, uploader: String) async throws {
        let key = UploaderKey.key(uploader)
        try await write { db in
            try db.execute(sql: "DELETE FROM hidden_uploaders WHERE user_id = ? AND uploader_key = ?", arguments: [userID, key])
            guard db.changesCount > 0 else { throw StoreError.notFound("uploader \(uploader) in the hidden list") }
        }
    }

    // MARK: - Helpers

    public func visibleRows(userID: Int64, ids: [Int64]) async throws -> [FeedRow] {
        try await read { db in
            var sql = FeedQuery.narrowSelect + """
                 FROM posts p LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id
                WHERE p.id IN (\(Self.placeholders(ids.count))) AND p.status = 'ready'
                """
            var arguments: StatementArguments = [userID] + StatementArguments(ids)
            if let libraries = try Self.scope(db, userID: userID, requested: nil).libraryIDs {
                sql += " AND p.library_id IN (\(Self.placeholders(libraries.count)))"
                arguments += StatementArguments(libraries)
            }
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(FeedRow.init)
        }
    }
}
