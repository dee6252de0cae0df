import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

/// Watch events in, and the person's own lists out: history and the hidden lists
/// (docs/recommendations-api.md), as SQLite's store answers them. The recurring jobs' side is
/// `PostgresStore+EventUpkeep.swift`.
extension PostgresStore: PersonListBackend {
    public func recordEvents(userID: Int64, _ events: [WatchEvent], aggregation: any EventAggregation) async throws -> EventBatchOutcome {
        if events.isEmpty { return .recorded(accepted: 0, duplicates: 0) }
        return try await write { connection in
            try await PostgresEventIngest.record(connection, userID: userID, events: events, aggregation: aggregation, logger: logger)
        }
    }

    // MARK: - History

    /// Walks the partial index `user_post_signals_history (user_id, watched_at, post_id)`
    /// backwards from the cursor.
    public func historyRows(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> [HistoryEntry] {
        try await read { connection in
            try await Self.recentRows(
                connection, columns: "post_id, watched_at, views, long_views, skips, watched_ms", table: "user_post_signals",
                time: "watched_at", condition: " AND watched_at IS NOT NULL", userID: userID, after: after, limit: limit, logger: logger
            ).map { row in
                let (postID, watchedAt, views, longViews, skips, watchedMs) = try row.decode((Int64, Double, Int, Int, Int, Int).self)
                return HistoryEntry(
                    postID: postID, watchedAt: Date(timeIntervalSince1970: watchedAt), views: views, longViews: longViews, skips: skips,
                    watchedMs: watchedMs, item: nil
                )
            }
        }
    }

    public func clearHistory(userID: Int64) async throws {
        try await write { connection in
            for table in ["watch_events", "user_post_signals", "user_affinities"] {
                try await connection.query("DELETE FROM \(unescaped: table) WHERE user_id = \(userID)", logger: logger)
            }
        }
    }

    public func forgetHistory(userID: Int64, postID: Int64) async throws {
        try await write { connection in
            let listed = try await connection.query("""
                DELETE FROM user_post_signals WHERE user_id = \(userID) AND post_id = \(postID) AND watched_at IS NOT NULL RETURNING 1
                """, logger: logger).collect()
            guard !listed.isEmpty else { throw StoreError.notFound("post \(postID) in the history") }
            try await connection.query("DELETE FROM watch_events WHERE user_id = \(userID) AND post_id = \(postID)", logger: logger)
        }
    }

    // MARK: - Hidden lists

    public func notInterestedRows(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> [HiddenPostEntry] {
        try await read { connection in
            try await Self.recentRows(
                connection, columns: "post_id, at", table: "hidden_posts", time: "at", userID: userID, after: after, limit: limit, logger: logger
            ).map { row in
                let (postID, at) = try row.decode((Int64, Double).self)
                return HiddenPostEntry(postID: postID, at: Date(timeIntervalSince1970: at), item: nil)
            }
        }
    }

    public func undoNotInterested(userID: Int64, postID: Int64) async throws {
        try await write { connection in
            let deleted = try await connection.query(
                "DELETE FROM hidden_posts WHERE user_id = \(userID) AND post_id = \(postID) RETURNING 1", logger: logger
            ).collect()
            guard !deleted.isEmpty else { throw StoreError.notFound("post \(postID) in the not interested list") }
        }
    }

    public func hiddenUploaders(userID: Int64) async throws -> [HiddenUploaderEntry] {
        try await read { connection in
            try await connection.query("""
                SELECT uploader, at FROM hidden_uploaders WHERE user_id = \(userID) ORDER BY at DESC, uploader_key COLLATE "C"
                """, logger: logger).collect().map { row in
                let (uploader, at) = try row.decode((String, Double).self)
                return HiddenUploaderEntry(uploader: uploader, at: Date(timeIntervalSince1970: at))
            }
        }
    }

    public func unhideUploader(userID: Int64, uploader: String) async throws {
        let key = UploaderKey.key(uploader)
        try await write { connection in
            let deleted = try await connection.query(
                "DELETE FROM hidden_uploaders WHERE user_id = \(userID) AND uploader_key = \(key) RETURNING 1", logger: logger
            ).collect()
            guard !deleted.isEmpty else { throw StoreError.notFound("uploader \(uploader) in the hidden list") }
        }
    }

    // MARK: - Helpers

    /// A person's post list ordered by (`time`, post id), newest first, walked backwards from the
    /// cursor (`columns` start with the post id, then the time).
    static func recentRows(
        _ connection: PostgresConnection, columns: String, table: String, time: String, condition: String = "",
        userID: Int64, after: RecentPostCursor?, limit: Int, logger: Logger
    ) async throws -> [PostgresRow] {
        var query = PostgresFeedSQL()
        query.sql = "SELECT \(columns) FROM \(table) WHERE user_id = \(query.bind(userID))\(condition)"
        if let after {
            query.sql += " AND (\(time), post_id) < (\(query.bind(after.at)), \(query.bind(after.postID)))"
        }
        query.sql += " ORDER BY \(time) DESC, post_id DESC LIMIT \(query.bind(limit))"
        return try await connection.query(query.query, logger: logger).collect()
    }

    public func visibleRows(userID: Int64, ids: [Int64]) async throws -> [FeedRow] {
        try await read { connection in
            let scope = try await Self.scope(connection, userID: userID, requested: nil, logger: logger)
            var query = PostgresFeedSQL()
            query.sql = """
                SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at
                FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id
                WHERE p.id = ANY(\(query.bind(ids))) AND p.status = 'ready'
                """
            if let libraries = scope.libraryIDs { query.sql += " AND p.library_id = ANY(\(query.bind(libraries)))" }
            return try await connection.query(query.query, logger: logger).collect().map(FeedRow.init)
        }
    }
}
