import Foundation
import GRDB
import ReelModels
import ReelStore

/// The SQL every story read shares: what "live" means, the library scope, and the columns an
/// item is read from, so the tray, a person's page, the archive and seen/like cannot disagree.
enum StoryQuery {
    /// Published at all: what an owner's archive lists (live or expired).
    static let published = "(p.status = 'story' OR (p.status = 'ready' AND s.kept = 1))"

    /// Published, not expired, not past `expires_at`. Over `story_items s JOIN posts p`; takes
    /// `now` (Unix seconds) as its one argument.
    static let live = "s.expired = 0 AND (s.expires_at IS NULL OR s.expires_at > ?) AND \(published)"

    /// ` AND p.library_id IN (…)` for a scope that is not every library (`.only([])` keeps
    /// to nothing), and its arguments.
    static func inScope(_ scope: LibraryScope) -> (sql: String, arguments: StatementArguments) {
        guard let ids = scope.libraryIDs else { return ("", []) }
        return (" AND p.library_id IN (\(ids.isEmpty ? "NULL" : SQLiteStore.placeholders(ids.count)))", StatementArguments(ids))
    }

    /// Every `posts` column, the filing, and the viewer's state and the item's counts, over
    /// `story_items s JOIN posts p`. Extra columns are prefixed `story_` so none shadows a
    /// column of `posts` (`PostColumns` takes the first of a name). Takes the viewer's id as
    /// its one argument.
    static let itemSelect = """
        SELECT p.*, s.author AS story_author, s.user_id AS story_user_id, s.posted_at AS story_posted_at,
               s.expires_at AS story_expires_at, s.archived AS story_archived, s.kept AS story_kept,
               s.expired AS story_expired, s.part AS story_part, s.parts AS story_parts,
               v.seen_at IS NOT NULL AS story_seen, v.liked_at IS NOT NULL AS story_liked,
               (SELECT COUNT(*) FROM story_views w WHERE w.post_id = s.post_id AND w.seen_at IS NOT NULL AND w.user_id IS NOT s.user_id) AS story_view_count,
               (SELECT COUNT(*) FROM story_views w WHERE w.post_id = s.post_id AND w.liked_at IS NOT NULL AND w.user_id IS NOT s.user_id) AS story_like_count
        FROM story_items s JOIN posts p ON p.id = s.post_id
        LEFT JOIN story_views v ON v.post_id = s.post_id AND v.user_id = ?
        """

    /// Rows of `itemSelect` as items, in the same order (tags and flags loaded per batch).
    static func items(_ db: Database, rows: [Row]) throws -> [StoryItem] {
        let posts = try SQLiteStore.decodePosts(db, rows: rows)
        return zip(posts, rows).map { post, row in
            StoryItem(
                post: post, author: row["story_author"], userID: row["story_user_id"],
                postedAt: RowDecoding.date(row["story_posted_at"]),
                expiresAt: (row["story_expires_at"] as Double?).map(RowDecoding.date),
                archived: row["story_archived"], kept: row["story_kept"], expired: row["story_expired"],
                part: row["story_part"], parts: row["story_parts"], seen: row["story_seen"], liked: row["story_liked"],
                viewCount: row["story_view_count"], likeCount: row["story_like_count"]
            )
        }
    }

    /// The viewer's live items with whether the viewer saw each, as a CTE named `live`
    /// (`author_key`, `author`, `post_id`, `posted_at`, `seen`). Arguments: viewer id, now, scope.
    static func liveCTE(viewerID: Int64, now: Date, scope: LibraryScope) -> (sql: String, arguments: StatementArguments) {
        let scoped = inScope(scope)
        let sql = """
            WITH live AS (
                SELECT s.author_key, s.author, s.post_id, s.posted_at,
                       EXISTS (SELECT 1 FROM story_views v WHERE v.user_id = ? AND v.post_id = s.post_id AND v.seen_at IS NOT NULL) AS seen
                FROM story_items s JOIN posts p ON p.id = s.post_id
                WHERE \(live)\(scoped.sql)
            )
            """
        return (sql, [viewerID, RowDecoding.seconds(now)] + scoped.arguments)
    }
}
