import Foundation
import GRDB
import ReelModels
import ReelStore

/// The viewer's side of stories: the tray, a person's live items, seen and liked.
extension SQLiteStore: StoryStore {
    /// Groups the viewer's live items by person and walks the groups in tray order from the
    /// cursor. Seen is per item (`story_views`), so a person's new item has no row for the
    /// viewer and their ring is unseen again.
    public func storyTray(viewerID: Int64, now: Date, after: StoryTrayCursor?, limit: Int) async throws
        -> (entries: [StoryTrayEntry], next: StoryTrayCursor?)
    {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one person, not \(limit)") }
        return try await read { db in
            let scope = try Self.scope(db, userID: viewerID, requested: nil)
            let live = StoryQuery.liveCTE(viewerID: viewerID, now: now, scope: scope)
            var sql = live.sql + """
                , people AS (
                    SELECT author_key, COUNT(*) AS items_count, MIN(seen) AS all_seen, MAX(posted_at) AS latest_at
                    FROM live GROUP BY author_key
                )
                SELECT author_key, items_count, all_seen, latest_at FROM people
                """
            var arguments = live.arguments
            if let after {
                // Unseen (0) before all seen (1), then newest first, then the name.
                sql += """
                     WHERE all_seen > ? OR (all_seen = ? AND (latest_at < ? OR (latest_at = ? AND author_key > ?)))
                    """
                arguments += [after.allSeen, after.allSeen, after.latestAt, after.latestAt, after.authorKey]
            }
            sql += " ORDER BY all_seen, latest_at DESC, author_key LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let page = Array(rows.prefix(limit))
            let entries = try Self.trayEntries(db, people: page, live: live)
            guard rows.count > limit, let last = entries.last else { return (entries, nil) }
            return (entries, StoryTrayCursor(allSeen: last.allSeen, latestAt: RowDecoding.seconds(last.latestAt), authorKey: last.authorKey))
        }
    }

    public func liveStories(viewerID: Int64, author: String, now: Date) async throws -> [StoryItem] {
        let key = author.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return try await read { db in
            let scoped = StoryQuery.inScope(try Self.scope(db, userID: viewerID, requested: nil))
            let rows = try Row.fetchAll(
                db,
                sql: StoryQuery.itemSelect + " WHERE s.author_key = ? AND \(StoryQuery.live)\(scoped.sql) ORDER BY s.posted_at, s.post_id",
                arguments: [viewerID, key, RowDecoding.seconds(now)] + scoped.arguments
            )
            return try StoryQuery.items(db, rows: rows)
        }
    }

    public func markStoriesSeen(viewerID: Int64, postIDs: [Int64], now: Date) async throws -> StorySeenResult {
        let ids = Array(Set(postIDs)).sorted()
        return try await write { db in
            let visible = try Self.visibleLiveStories(db, viewerID: viewerID, postIDs: ids, now: now)
            for id in visible {
                try db.execute(
                    sql: """
                        INSERT INTO story_views (user_id, post_id, seen_at) VALUES (?, ?, ?)
                        ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = COALESCE(seen_at, excluded.seen_at)
                        """,
                    arguments: [viewerID, id, RowDecoding.seconds(now)]
                )
            }
            return StorySeenResult(accepted: visible.count, ignored: ids.count - visible.count)
        }
    }

    public func setStoryLike(viewerID: Int64, postID: Int64, liked: Bool, now: Date) async throws {
        try await write { db in
            guard try !Self.visibleLiveStories(db, viewerID: viewerID, postIDs: [postID], now: now).isEmpty else {
                throw StoreError.notFound("story item \(postID)")
            }
            if liked {
                try db.execute(
                    sql: """
                        INSERT INTO story_views (user_id, post_id, liked_at) VALUES (?, ?, ?)
                        ON CONFLICT (user_id, post_id) DO UPDATE SET liked_at = COALESCE(liked_at, excluded.liked_at)
                        """,
                    arguments: [viewerID, postID, RowDecoding.seconds(now)]
                )
            } else {
                // The row stays when it records a view; one that only held the like goes.
                try db.execute(sql: "UPDATE story_views SET liked_at = NULL WHERE user_id = ? AND post_id = ?", arguments: [viewerID, postID])
                try db.execute(sql: "DELETE FROM story_views WHERE user_id = ? AND post_id = ? AND seen_at IS NULL AND liked_at IS NULL",
                               arguments: [viewerID, postID])
            }
        }
    }

    // MARK: - Inside a transaction

    /// Which of `postIDs` are live story items in the viewer's scope.
    static func visibleLiveStories(_ db: Database, viewerID: Int64, postIDs: [Int64], now: Date) throws -> [Int64] {
        guard !postIDs.isEmpty else { return [] }
        let scoped = StoryQuery.inScope(try scope(db, userID: viewerID, requested: nil))
        var visible: [Int64] = []
        var start = 0
        while start < postIDs.count {
            let chunk = Array(postIDs[start..<min(start + 500, postIDs.count)])
            start += chunk.count
            visible += try Int64.fetchAll(
                db,
                sql: """
                    SELECT s.post_id FROM story_items s JOIN posts p ON p.id = s.post_id
                    WHERE s.post_id IN (\(placeholders(chunk.count))) AND \(StoryQuery.live)\(scoped.sql)
                    """,
                arguments: StatementArguments(chunk) + [RowDecoding.seconds(now)] + scoped.arguments
            )
        }
        return visible
    }

    /// The page's people with their first unseen index, display name and newest post, from
    /// one read of their live items and one of their newest posts.
    private static func trayEntries(
        _ db: Database, people: [Row], live: (sql: String, arguments: StatementArguments)
    ) throws -> [StoryTrayEntry] {
        guard !people.isEmpty else { return [] }
        let keys: [String] = people.map { $0["author_key"] }
        let items = try Row.fetchAll(
            db,
            sql: live.sql + " SELECT author_key, author, post_id, seen FROM live WHERE author_key IN (\(placeholders(keys.count))) ORDER BY author_key, posted_at, post_id",
            arguments: live.arguments + StatementArguments(keys)
        )
        var firstUnseen: [String: Int] = [:]
        var newest: [String: (author: String, postID: Int64)] = [:]
        var counted: [String: Int] = [:]
        for item in items {
            let key: String = item["author_key"]
            let index = counted[key, default: 0]
            counted[key] = index + 1
            if firstUnseen[key] == nil, !(item["seen"] as Bool) { firstUnseen[key] = index }
            newest[key] = (item["author"], item["post_id"])
        }
        let newestIDs = newest.values.map(\.postID)
        let posts = Dictionary(
            try fetchPosts(db, where: "id IN (\(placeholders(newestIDs.count)))", StatementArguments(newestIDs)).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        return try people.map { row in
            let key: String = row["author_key"]
            guard let last = newest[key], let post = posts[last.postID] else {
                throw StoreError.corrupt("the tray lost \(key)'s items inside one read")
            }
            return StoryTrayEntry(
                author: last.author, authorKey: key, itemsCount: row["items_count"], firstUnseen: firstUnseen[key] ?? 0,
                allSeen: row["all_seen"], latestAt: RowDecoding.date(row["latest_at"]), newest: post
            )
        }
    }
}
