import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

/// Watch events in, and the person's own lists out: history and the hidden lists
/// (docs/recommendations-api.md). The recurring jobs' side is `SQLiteStore+EventUpkeep.swift`.
extension SQLiteStore: EventStore {
    public func recordEvents(userID: Int64, _ events: [WatchEvent]) async throws -> EventBatchOutcome {
        if events.isEmpty { return .recorded(accepted: 0, duplicates: 0) }
        return try await write { db in try EventIngest.record(db, userID: userID, events: events) }
    }

    // MARK: - History

    /// Walks the partial index `user_post_signals_history (user_id, watched_at, post_id)`
    /// backwards from the cursor.
    public func history(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HistoryEntry], next: RecentPostCursor?) {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one entry, not \(limit)") }
        return try await read { db in
            let page = try Self.recentPostPage(
                db, columns: "post_id, watched_at, views, long_views, skips, watched_ms", table: "user_post_signals",
                time: "watched_at", condition: " AND watched_at IS NOT NULL", userID: userID, after: after, limit: limit
            )
            let entries = page.rows.map { row in
                let postID: Int64 = row[0]
                return HistoryEntry(
                    postID: postID, watchedAt: RowDecoding.date(row[1]), views: row[2], longViews: row[3], skips: row[4],
                    watchedMs: row[5], item: page.items[postID]
                )
            }
            return (entries, page.next)
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

    public func notInterested(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HiddenPostEntry], next: RecentPostCursor?) {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one entry, not \(limit)") }
        return try await read { db in
            let page = try Self.recentPostPage(
                db, columns: "post_id, at", table: "hidden_posts", time: "at", userID: userID, after: after, limit: limit
            )
            let entries = page.rows.map { row in
                let postID: Int64 = row[0]
                return HiddenPostEntry(postID: postID, at: RowDecoding.date(row[1]), item: page.items[postID])
            }
            return (entries, page.next)
        }
    }

    /// One page of a person's post list ordered by (`time`, post id), newest first, walked
    /// backwards from the cursor: its rows (`columns` start with the post id, then the time),
    /// the visible items of those posts, and the cursor after it (nil on the last page). History
    /// and "not interested" page the same way.
    static func recentPostPage(
        _ db: Database, columns: String, table: String, time: String, condition: String = "",
        userID: Int64, after: RecentPostCursor?, limit: Int
    ) throws -> (rows: [Row], items: [Int64: FeedItem], next: RecentPostCursor?) {
        var sql = "SELECT \(columns) FROM \(table) WHERE user_id = ?\(condition)"
        var arguments: StatementArguments = [userID]
        if let after {
            sql += " AND (\(time), post_id) < (?, ?)"
            arguments += [after.at, after.postID]
        }
        sql += " ORDER BY \(time) DESC, post_id DESC LIMIT ?"
        arguments += [limit + 1]
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        let page = Array(rows.prefix(limit))
        let items = try visibleItems(db, userID: userID, postIDs: page.map { $0[0] })
        guard rows.count > limit, let last = page.last else { return (page, items, nil) }
        return (page, items, RecentPostCursor(at: last[1], postID: last[0]))
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

    /// The posts among `postIDs` the person may see in a listing (ready, in a granted library),
    /// with their refs and the person's state, by id.
    static func visibleItems(_ db: Database, userID: Int64, postIDs: [Int64]) throws -> [Int64: FeedItem] {
        guard !postIDs.isEmpty else { return [:] }
        var sql = """
            SELECT p.*, s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
                   s.position AS viewer_position, s.seen_at AS viewer_seen_at
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id
            WHERE p.id IN (\(placeholders(postIDs.count))) AND p.status = 'ready'
            """
        var arguments: StatementArguments = [userID] + StatementArguments(postIDs)
        if case .only(let libraries) = try scope(db, userID: userID, requested: nil) {
            sql += " AND p.library_id IN (\(placeholders(libraries.count)))"
            arguments += StatementArguments(libraries)
        }
        let items = try decodeItems(db, rows: Row.fetchAll(db, sql: sql, arguments: arguments))
        return Dictionary(items.map { ($0.post.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
