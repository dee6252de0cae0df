import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    /// One page of Latest (see `ForYouStore`): a keyset walk of `posts_ready_by_added`
    /// backwards from (`date_added`, id) of the last post served, or — for a filter that keeps
    /// few posts — those few sorted, the same driver choice as the shuffled feed.
    public func latestPage(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> (items: [FeedItem], next: LatestPosition?) {
        guard (1...Self.maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxFeedPage) posts, not \(limit)")
        }
        let posts = feedPosts
        return try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            if resolved.matchesNothing { return ([], nil) }
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) { try FeedQuery.threshold(db, limit: limit) }
            var (sql, arguments) = FeedQuery.body(userID: userID, filter: resolved, driver: driver, column: 0, walkIndex: "posts_ready_by_added")
            if let after {
                sql += " AND (p.date_added, p.id) < (?, ?)"
                arguments += [after.addedAt, after.id]
            }
            sql = """
                SELECT p.id, p.revision, 0 AS feed_key,
                       s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
                       s.position AS viewer_position, s.seen_at AS viewer_seen_at, p.date_added
                """ + " " + sql + " ORDER BY p.date_added DESC, p.id DESC LIMIT ?"
            var rows: [(row: FeedRow, addedAt: Double)] = []
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments + [limit + 1])
            while let row = try cursor.next() { rows.append((FeedRow(row), row[7])) }
            let page = rows.prefix(limit)
            let items = try posts.items(db, rows: page.map(\.row))
            guard rows.count > limit, let last = page.last else { return (items, nil) }
            return (items, LatestPosition(addedAt: last.addedAt, id: last.row.id))
        }
    }
}
