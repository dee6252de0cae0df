import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// The SQL every story read shares (SQLite's `StoryQuery`): what "live" means, the library
/// scope, and the columns an item is read from, so the tray, a person's page, the archive and
/// seen/like cannot disagree. Conditions are over `story_items s JOIN posts p`.
enum PostgresStoryQuery {
    /// Published at all: what an owner's archive lists (live or expired).
    static let published = "(p.status = 'story' OR (p.status = 'ready' AND s.kept))"

    /// Published, not expired, not past `expires_at` (`now` bound as `nowPlaceholder`).
    static func live(now nowPlaceholder: String) -> String {
        "NOT s.expired AND (s.expires_at IS NULL OR s.expires_at > \(nowPlaceholder)) AND \(published)"
    }

    /// ` AND p.library_id = ANY(…)` for a scope that is not every library.
    static func inScope(_ scope: LibraryScope, _ query: inout PostgresFeedSQL) -> String {
        guard let ids = scope.libraryIDs else { return "" }
        return " AND p.library_id = ANY(\(query.bind(ids)))"
    }

    /// The filing, the viewer's state and the item's counts, by post id; the post itself is
    /// read with `PostgresStore.posts`.
    static func itemSelect(viewer: String) -> String {
        """
        SELECT s.post_id, s.author, s.user_id, s.posted_at, s.expires_at, s.archived, s.kept, s.expired, s.part, s.parts,
               v.seen_at IS NOT NULL, v.liked_at IS NOT NULL,
               (SELECT count(*) FROM story_views w WHERE w.post_id = s.post_id AND w.seen_at IS NOT NULL AND w.user_id IS DISTINCT FROM s.user_id),
               (SELECT count(*) FROM story_views w WHERE w.post_id = s.post_id AND w.liked_at IS NOT NULL AND w.user_id IS DISTINCT FROM s.user_id)
        FROM story_items s JOIN posts p ON p.id = s.post_id
        LEFT JOIN story_views v ON v.post_id = s.post_id AND v.user_id = \(viewer)
        """
    }

    /// Rows of `itemSelect` as items, in the same order.
    static func items(_ connection: PostgresConnection, rows: [PostgresRow], logger: Logger) async throws -> [StoryItem] {
        typealias Columns = (Int64, String, Int64?, Double, Double?, Bool, Bool, Bool, Int32, Int32, Bool, Bool, Int64, Int64)
        let decoded = try rows.map { try $0.decode(Columns.self) }
        let posts = try await PostgresStore.posts(connection, ids: decoded.map(\.0), logger: logger)
        let byID = Dictionary(posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try decoded.map { row in
            guard let post = byID[row.0] else { throw StoreError.corrupt("story item \(row.0) lost its post inside one read") }
            return StoryItem(
                post: post, author: row.1, userID: row.2, postedAt: Date(timeIntervalSince1970: row.3),
                expiresAt: row.4.map(Date.init(timeIntervalSince1970:)), archived: row.5, kept: row.6, expired: row.7,
                part: Int(row.8), parts: Int(row.9), seen: row.10, liked: row.11, viewCount: Int(row.12), likeCount: Int(row.13)
            )
        }
    }
}
