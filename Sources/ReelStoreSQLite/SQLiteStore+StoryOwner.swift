import Foundation
import GRDB
import ReelModels
import ReelStore

/// The poster's side of stories (one item, its viewers, keep, the archive) and the expiry sweep.
extension SQLiteStore {
    public func storyItem(postID: Int64, viewerID: Int64) async throws -> StoryItem? {
        try await read { db in
            let scoped = StoryQuery.inScope(try Self.scope(db, userID: viewerID, requested: nil))
            let rows = try Row.fetchAll(
                db, sql: StoryQuery.itemSelect + " WHERE s.post_id = ?\(scoped.sql)", arguments: [viewerID, postID] + scoped.arguments
            )
            return try StoryQuery.items(db, rows: rows).first
        }
    }

    /// Walks `story_views_by_post (post_id, seen_at)` backwards from the cursor.
    public func storyViewers(postID: Int64, after: StoryViewersCursor?, limit: Int) async throws
        -> (viewers: [StoryViewer], next: StoryViewersCursor?)
    {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one viewer, not \(limit)") }
        return try await read { db in
            var sql = """
                SELECT v.user_id, u.name, v.seen_at, v.liked_at IS NOT NULL AS liked
                FROM story_views v JOIN users u ON u.id = v.user_id JOIN story_items s ON s.post_id = v.post_id
                WHERE v.post_id = ? AND v.seen_at IS NOT NULL AND v.user_id IS NOT s.user_id
                """
            var arguments: StatementArguments = [postID]
            if let after {
                sql += " AND (v.seen_at < ? OR (v.seen_at = ? AND v.user_id < ?))"
                arguments += [after.seenAt, after.seenAt, after.userID]
            }
            sql += " ORDER BY v.seen_at DESC, v.user_id DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let viewers = rows.prefix(limit).map { row in
                StoryViewer(userID: row["user_id"], name: row["name"], seenAt: RowDecoding.date(row["seen_at"]), liked: row["liked"])
            }
            guard rows.count > limit, let last = viewers.last else { return (viewers, nil) }
            return (viewers, StoryViewersCursor(seenAt: RowDecoding.seconds(last.seenAt), userID: last.userID))
        }
    }

    public func keepStory(postID: Int64) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE story_items SET kept = 1 WHERE post_id = ?", arguments: [postID])
            guard db.changesCount > 0 else { throw StoreError.notFound("story item \(postID)") }
            // An unpublished item becomes `ready` when its transcode publishes (kept = 1).
            try db.execute(
                sql: "UPDATE posts SET status = ? WHERE id = ? AND status = ?",
                arguments: [PostStatus.ready.rawValue, postID, PostStatus.story.rawValue]
            )
        }
    }

    public func storyArchive(viewerID: Int64, after: StoryArchiveCursor?, limit: Int) async throws
        -> (items: [StoryItem], next: StoryArchiveCursor?)
    {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one item, not \(limit)") }
        return try await read { db in
            let scoped = StoryQuery.inScope(try Self.scope(db, userID: viewerID, requested: nil))
            var sql = StoryQuery.itemSelect + " WHERE s.user_id = ? AND \(StoryQuery.published)\(scoped.sql)"
            var arguments: StatementArguments = [viewerID, viewerID] + scoped.arguments
            if let after {
                sql += " AND (s.posted_at < ? OR (s.posted_at = ? AND s.post_id < ?))"
                arguments += [after.postedAt, after.postedAt, after.postID]
            }
            sql += " ORDER BY s.posted_at DESC, s.post_id DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let items = try StoryQuery.items(db, rows: Array(rows.prefix(limit)))
            guard rows.count > limit, let last = items.last else { return (items, nil) }
            return (items, StoryArchiveCursor(postedAt: RowDecoding.seconds(last.postedAt), postID: last.id))
        }
    }

    public func expireStories(now: Date, keepOwnerArchive: Bool) async throws -> [Int64] {
        try await write { db in
            try db.execute(
                sql: "UPDATE story_items SET expired = 1 WHERE expires_at IS NOT NULL AND expired = 0 AND expires_at <= ?",
                arguments: [RowDecoding.seconds(now)]
            )
            // Over the partial index `story_items_to_delete` (v14): only rows waiting to go.
            return try Int64.fetchAll(
                db,
                sql: """
                    SELECT post_id FROM story_items
                    WHERE expired = 1 AND kept = 0 AND archived = 0 AND (user_id IS NULL OR ? = 0)
                    ORDER BY post_id
                    """,
                arguments: [keepOwnerArchive]
            )
        }
    }
}
