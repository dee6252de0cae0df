import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// The viewer's side of stories (the tray, a person's live items, seen and liked) and the
/// poster's (one item, its viewers, keep, the archive), with the expiry sweep: SQLite's answers.
extension PostgresStore: StoryStore {
    /// Groups the viewer's live items by person and walks the groups in tray order from the
    /// cursor: people with an unseen item first, then the newest, then the name.
    public func storyTray(viewerID: Int64, now: Date, after: StoryTrayCursor?, limit: Int) async throws
        -> (entries: [StoryTrayEntry], next: StoryTrayCursor?)
    {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one person, not \(limit)") }
        return try await snapshot { connection in
            let scope = try await Self.scope(connection, userID: viewerID, requested: nil, logger: logger)
            var query = PostgresFeedSQL()
            let viewer = query.bind(viewerID)
            let nowPlaceholder = query.bind(now.timeIntervalSince1970)
            let scoped = PostgresStoryQuery.inScope(scope, &query)
            query.sql = """
                WITH live AS (
                    SELECT s.author_key, s.author, s.post_id, s.posted_at,
                           EXISTS (SELECT 1 FROM story_views v WHERE v.user_id = \(viewer) AND v.post_id = s.post_id AND v.seen_at IS NOT NULL) AS seen
                    FROM story_items s JOIN posts p ON p.id = s.post_id
                    WHERE \(PostgresStoryQuery.live(now: nowPlaceholder))\(scoped)
                ), people AS (
                    SELECT author_key, count(*) AS items_count, bool_and(seen) AS all_seen, max(posted_at) AS latest_at,
                           (array_agg(author ORDER BY posted_at DESC, post_id DESC))[1] AS author,
                           (array_agg(post_id ORDER BY posted_at DESC, post_id DESC))[1] AS newest_id,
                           coalesce(array_position(array_agg(seen ORDER BY posted_at, post_id), false), 1) - 1 AS first_unseen
                    FROM live GROUP BY author_key
                )
                SELECT author_key, items_count, all_seen, latest_at, author, newest_id, first_unseen FROM people
                """
            if let after {
                let seen = query.bind(after.allSeen)
                let latest = query.bind(after.latestAt)
                query.sql += " WHERE all_seen > \(seen) OR (all_seen = \(seen) AND (latest_at < \(latest) OR (latest_at = \(latest) AND author_key > \(query.bind(after.authorKey)))))"
            }
            query.sql += " ORDER BY all_seen, latest_at DESC, author_key LIMIT \(query.bind(limit + 1))"
            let rows = try await connection.query(query.query, logger: logger).collect()
            let people = try rows.prefix(limit).map { try $0.decode((String, Int64, Bool, Double, String, Int64, Int32).self) }
            let newest = try await Self.posts(connection, ids: people.map(\.5), logger: logger)
            let byID = Dictionary(newest.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let entries = try people.map { key, count, allSeen, latestAt, author, newestID, firstUnseen in
                guard let post = byID[newestID] else { throw StoreError.corrupt("the tray lost \(key)'s items inside one read") }
                return StoryTrayEntry(
                    author: author, authorKey: key, itemsCount: Int(count), firstUnseen: Int(firstUnseen), allSeen: allSeen,
                    latestAt: Date(timeIntervalSince1970: latestAt), newest: post
                )
            }
            guard rows.count > limit, let last = entries.last else { return (entries, nil) }
            return (entries, StoryTrayCursor(allSeen: last.allSeen, latestAt: last.latestAt.timeIntervalSince1970, authorKey: last.authorKey))
        }
    }

    public func liveStories(viewerID: Int64, author: String, now: Date) async throws -> [StoryItem] {
        let key = author.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return try await snapshot { connection in
            let scope = try await Self.scope(connection, userID: viewerID, requested: nil, logger: logger)
            var query = PostgresFeedSQL()
            let select = PostgresStoryQuery.itemSelect(viewer: query.bind(viewerID))
            let keyPlaceholder = query.bind(key)
            let live = PostgresStoryQuery.live(now: query.bind(now.timeIntervalSince1970))
            let scoped = PostgresStoryQuery.inScope(scope, &query)
            query.sql = select + " WHERE s.author_key = \(keyPlaceholder) AND \(live)\(scoped) ORDER BY s.posted_at, s.post_id"
            let rows = try await connection.query(query.query, logger: logger).collect()
            return try await PostgresStoryQuery.items(connection, rows: rows, logger: logger)
        }
    }

    public func markStoriesSeen(viewerID: Int64, postIDs: [Int64], now: Date) async throws -> StorySeenResult {
        let ids = Array(Set(postIDs)).sorted()
        return try await write { connection in
            let visible = try await Self.visibleLiveStories(connection, viewerID: viewerID, postIDs: ids, now: now, logger: logger)
            for id in visible {
                try await connection.query("""
                    INSERT INTO story_views (user_id, post_id, seen_at) VALUES (\(viewerID), \(id), \(now.timeIntervalSince1970))
                    ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = COALESCE(story_views.seen_at, EXCLUDED.seen_at)
                    """, logger: logger)
            }
            return StorySeenResult(accepted: visible.count, ignored: ids.count - visible.count)
        }
    }

    public func setStoryLike(viewerID: Int64, postID: Int64, liked: Bool, now: Date) async throws {
        try await write { connection in
            guard try await !Self.visibleLiveStories(connection, viewerID: viewerID, postIDs: [postID], now: now, logger: logger).isEmpty else {
                throw StoreError.notFound("story item \(postID)")
            }
            if liked {
                try await connection.query("""
                    INSERT INTO story_views (user_id, post_id, liked_at) VALUES (\(viewerID), \(postID), \(now.timeIntervalSince1970))
                    ON CONFLICT (user_id, post_id) DO UPDATE SET liked_at = COALESCE(story_views.liked_at, EXCLUDED.liked_at)
                    """, logger: logger)
            } else {
                // The row stays when it records a view; one that only held the like goes.
                try await connection.query(
                    "UPDATE story_views SET liked_at = NULL WHERE user_id = \(viewerID) AND post_id = \(postID)", logger: logger
                )
                try await connection.query("""
                    DELETE FROM story_views WHERE user_id = \(viewerID) AND post_id = \(postID) AND seen_at IS NULL AND liked_at IS NULL
                    """, logger: logger)
            }
        }
    }

    public func storyItem(postID: Int64, viewerID: Int64) async throws -> StoryItem? {
        try await snapshot { connection in
            let scope = try await Self.scope(connection, userID: viewerID, requested: nil, logger: logger)
            var query = PostgresFeedSQL()
            let select = PostgresStoryQuery.itemSelect(viewer: query.bind(viewerID))
            let post = query.bind(postID)
            let scoped = PostgresStoryQuery.inScope(scope, &query)
            query.sql = select + " WHERE s.post_id = \(post)\(scoped)"
            let rows = try await connection.query(query.query, logger: logger).collect()
            return try await PostgresStoryQuery.items(connection, rows: rows, logger: logger).first
        }
    }

    /// Walks `story_views_by_post (post_id, seen_at)` backwards from the cursor.
    public func storyViewers(postID: Int64, after: StoryViewersCursor?, limit: Int) async throws
        -> (viewers: [StoryViewer], next: StoryViewersCursor?)
    {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one viewer, not \(limit)") }
        return try await read { connection in
            let rows = try await connection.query("""
                SELECT v.user_id, u.name, v.seen_at, v.liked_at IS NOT NULL
                FROM story_views v JOIN users u ON u.id = v.user_id JOIN story_items s ON s.post_id = v.post_id
                WHERE v.post_id = \(postID) AND v.seen_at IS NOT NULL AND v.user_id IS DISTINCT FROM s.user_id
                  AND (\(after?.seenAt)::double precision IS NULL
                       OR (v.seen_at, v.user_id) < (\(after?.seenAt)::double precision, \(after?.userID)::bigint))
                ORDER BY v.seen_at DESC, v.user_id DESC LIMIT \(limit + 1)
                """, logger: logger).collect()
            let viewers = try rows.prefix(limit).map { row in
                let (userID, name, seenAt, liked) = try row.decode((Int64, String, Double, Bool).self)
                return StoryViewer(userID: userID, name: name, seenAt: Date(timeIntervalSince1970: seenAt), liked: liked)
            }
            guard rows.count > limit, let last = viewers.last else { return (viewers, nil) }
            return (viewers, StoryViewersCursor(seenAt: last.seenAt.timeIntervalSince1970, userID: last.userID))
        }
    }

    public func keepStory(postID: Int64) async throws {
        try await write { connection in
            let kept = try await connection.query(
                "UPDATE story_items SET kept = true WHERE post_id = \(postID) RETURNING post_id", logger: logger
            ).collect()
            guard !kept.isEmpty else { throw StoreError.notFound("story item \(postID)") }
            // An unpublished item becomes `ready` when its transcode publishes (kept).
            try await connection.query("""
                UPDATE posts SET status = \(PostStatus.ready.rawValue) WHERE id = \(postID) AND status = \(PostStatus.story.rawValue)
                """, logger: logger)
        }
    }

    public func storyArchive(viewerID: Int64, after: StoryArchiveCursor?, limit: Int) async throws
        -> (items: [StoryItem], next: StoryArchiveCursor?)
    {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one item, not \(limit)") }
        return try await snapshot { connection in
            let scope = try await Self.scope(connection, userID: viewerID, requested: nil, logger: logger)
            var query = PostgresFeedSQL()
            let viewer = query.bind(viewerID)
            let select = PostgresStoryQuery.itemSelect(viewer: viewer)
            let scoped = PostgresStoryQuery.inScope(scope, &query)
            query.sql = select + " WHERE s.user_id = \(viewer) AND \(PostgresStoryQuery.published)\(scoped)"
            if let after {
                query.sql += " AND (s.posted_at, s.post_id) < (\(query.bind(after.postedAt)), \(query.bind(after.postID)))"
            }
            query.sql += " ORDER BY s.posted_at DESC, s.post_id DESC LIMIT \(query.bind(limit + 1))"
            let rows = try await connection.query(query.query, logger: logger).collect()
            let items = try await PostgresStoryQuery.items(connection, rows: Array(rows.prefix(limit)), logger: logger)
            guard rows.count > limit, let last = items.last else { return (items, nil) }
            return (items, StoryArchiveCursor(postedAt: last.postedAt.timeIntervalSince1970, postID: last.id))
        }
    }

    public func expireStories(now: Date, keepOwnerArchive: Bool) async throws -> [Int64] {
        try await write { connection in
            try await connection.query("""
                UPDATE story_items SET expired = true
                WHERE expires_at IS NOT NULL AND NOT expired AND expires_at <= \(now.timeIntervalSince1970)
                """, logger: logger)
            // Over the partial index `story_items_to_delete`: only rows waiting to go.
            return try await connection.query("""
                SELECT post_id FROM story_items
                WHERE expired AND NOT kept AND NOT archived AND (user_id IS NULL OR NOT \(keepOwnerArchive))
                ORDER BY post_id
                """, logger: logger).collect().map { try $0.decode(Int64.self) }
        }
    }

    /// Which of `postIDs` are live story items in the viewer's scope.
    static func visibleLiveStories(
        _ connection: PostgresConnection, viewerID: Int64, postIDs: [Int64], now: Date, logger: Logger
    ) async throws -> [Int64] {
        guard !postIDs.isEmpty else { return [] }
        let scope = try await scope(connection, userID: viewerID, requested: nil, logger: logger)
        var query = PostgresFeedSQL()
        let ids = query.bind(postIDs)
        let live = PostgresStoryQuery.live(now: query.bind(now.timeIntervalSince1970))
        let scoped = PostgresStoryQuery.inScope(scope, &query)
        query.sql = "SELECT s.post_id FROM story_items s JOIN posts p ON p.id = s.post_id WHERE s.post_id = ANY(\(ids)) AND \(live)\(scoped) ORDER BY s.post_id"
        return try await connection.query(query.query, logger: logger).collect().map { try $0.decode(Int64.self) }
    }
}
