import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelRank
import ReelStore

/// Watch events in, and the person's own lists out: history and the hidden lists
/// (docs/recommendations-api.md), as SQLite's store answers them. The recurring jobs' side is
/// `PostgresStore+EventUpkeep.swift`.
extension PostgresStore: EventStore {
    public func recordEvents(userID: Int64, _ events: [WatchEvent]) async throws -> EventBatchOutcome {
        if events.isEmpty { return .recorded(accepted: 0, duplicates: 0) }
        return try await write { connection in
            try await PostgresEventIngest.record(connection, userID: userID, events: events, logger: logger)
        }
    }

    // MARK: - History

    /// Walks the partial index `user_post_signals_history (user_id, watched_at, post_id)`
    /// backwards from the cursor.
    public func history(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HistoryEntry], next: RecentPostCursor?) {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one entry, not \(limit)") }
        return try await snapshot { connection in
            let page = try await Self.recentPostPage(
                connection, columns: "post_id, watched_at, views, long_views, skips, watched_ms", table: "user_post_signals",
                time: "watched_at", condition: " AND watched_at IS NOT NULL", userID: userID, after: after, limit: limit, logger: logger
            )
            let entries = try page.rows.map { row in
                let (postID, watchedAt, views, longViews, skips, watchedMs) = try row.decode((Int64, Double, Int, Int, Int, Int).self)
                return HistoryEntry(
                    postID: postID, watchedAt: Date(timeIntervalSince1970: watchedAt), views: views, longViews: longViews, skips: skips,
                    watchedMs: watchedMs, item: page.items[postID]
                )
            }
            return (entries, page.next)
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

    public func notInterested(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HiddenPostEntry], next: RecentPostCursor?) {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one entry, not \(limit)") }
        return try await snapshot { connection in
            let page = try await Self.recentPostPage(
                connection, columns: "post_id, at", table: "hidden_posts", time: "at", userID: userID, after: after, limit: limit, logger: logger
            )
            let entries = try page.rows.map { row in
                let (postID, at) = try row.decode((Int64, Double).self)
                return HiddenPostEntry(postID: postID, at: Date(timeIntervalSince1970: at), item: page.items[postID])
            }
            return (entries, page.next)
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

    /// One page of a person's post list ordered by (`time`, post id), newest first, walked
    /// backwards from the cursor: its rows (`columns` start with the post id, then the time),
    /// the visible items of those posts, and the cursor after it (nil on the last page).
    private static func recentPostPage(
        _ connection: PostgresConnection, columns: String, table: String, time: String, condition: String = "",
        userID: Int64, after: RecentPostCursor?, limit: Int, logger: Logger
    ) async throws -> (rows: [PostgresRow], items: [Int64: FeedItem], next: RecentPostCursor?) {
        var query = PostgresFeedSQL()
        query.sql = "SELECT \(columns) FROM \(table) WHERE user_id = \(query.bind(userID))\(condition)"
        if let after {
            query.sql += " AND (\(time), post_id) < (\(query.bind(after.at)), \(query.bind(after.postID)))"
        }
        query.sql += " ORDER BY \(time) DESC, post_id DESC LIMIT \(query.bind(limit + 1))"
        let rows = try await connection.query(query.query, logger: logger).collect()
        let page = Array(rows.prefix(limit))
        let keys = try page.map { row in
            let cells = row.makeRandomAccess()
            return (try cells[0].decode(Int64.self), try cells[1].decode(Double.self))
        }
        let items = try await visibleItems(connection, userID: userID, postIDs: keys.map(\.0), logger: logger)
        guard rows.count > limit, let last = keys.last else { return (page, items, nil) }
        return (page, items, RecentPostCursor(at: last.1, postID: last.0))
    }

    /// The posts among `postIDs` the person may see in a listing (ready, in a granted library),
    /// with their refs and the person's state, by id.
    static func visibleItems(_ connection: PostgresConnection, userID: Int64, postIDs: [Int64], logger: Logger) async throws -> [Int64: FeedItem] {
        guard !postIDs.isEmpty else { return [:] }
        let scope = try await scope(connection, userID: userID, requested: nil, logger: logger)
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id
            WHERE p.id = ANY(\(query.bind(postIDs))) AND p.status = 'ready'
            """
        if let libraries = scope.libraryIDs { query.sql += " AND p.library_id = ANY(\(query.bind(libraries)))" }
        let rows = try await connection.query(query.query, logger: logger).collect().map(PostgresFeedRow.init)
        let items = try await Self.items(connection, rows: rows, logger: logger)
        return Dictionary(items.map { ($0.post.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
