import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelRank
import ReelStore

/// For You and Latest on PostgreSQL (see `ForYouStore`): the same recipe as SQLite's store
/// (`ForYouAssembly` over the same walks, `PostgresForYouCandidates`), so one cursor gives
/// the same page from either store over the same data.
extension PostgresStore: ForYouStore {
    public func signalCount(userID: Int64, atMost: Int) async throws -> Int {
        try await read { connection in try await Self.signalCount(connection, userID: userID, atMost: atMost, logger: logger) }
    }

    /// The page is chosen on one snapshot (REPEATABLE READ, read only: it never waits for
    /// ingest) and its posts are marked seen in one upsert afterwards.
    public func forYouPage(
        userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date
    ) async throws -> (items: [ForYouItem], next: ForYouPosition?) {
        guard (1...Self.maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxFeedPage) posts, not \(limit)")
        }
        let items = try await snapshot { connection in
            try await Self.chooseForYouPage(connection, userID: userID, filter: filter, position: position, limit: limit, now: now, logger: logger)
        }
        guard let last = items.last else { return ([], nil) }
        let ids = items.map(\.item.post.id)
        try await write { connection in
            _ = try await connection.query("""
                INSERT INTO user_post_signals AS u (user_id, post_id, seen_at)
                SELECT \(userID), p.id, \(now.timeIntervalSince1970) FROM posts p WHERE p.id = ANY(\(ids))
                ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = greatest(u.seen_at, excluded.seen_at)
                """, logger: logger)
        }
        return (items, ForYouAssembly.next(after: position, lastPostID: last.item.post.id))
    }

    private static func chooseForYouPage(
        _ connection: PostgresConnection, userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date, logger: Logger
    ) async throws -> [ForYouItem] {
        let resolved = try await PostgresFeedFilter.resolve(connection, filter, userID: userID, logger: logger)
        if resolved.matchesNothing { return [] }
        let profile = try await PostgresForYouProfile.profile(connection, userID: userID, now: now, logger: logger)
        let maxPostID = try await connection.query("SELECT coalesce(max(id), 0) FROM posts", logger: logger).collect()
            .first?.decode(Int64.self) ?? 0
        var assembly = ForYouAssembly(limit: limit)
        var sources = PostgresForYouCandidates(
            connection: connection, userID: userID, filter: resolved, sizes: assembly.sizes,
            generator: ForYouAssembly.walkGenerator(position), logger: logger
        )
        let neighbors = try await sources.neighbors(of: profile, in: assembly)
        assembly.addNeighbors(neighbors.scores, servable: neighbors.servable)
        let tagged = try await sources.tagged(profile.topTags, maxPostID: maxPostID)
        let respelled = ForYouAssembly.respelled(profile, tagged.spelling)
        assembly.add(tagged.posts.keys, from: .tag)
        assembly.add(try await sources.uploaded(profile.topUploaders, maxPostID: maxPostID).keys, from: .uploader)
        assembly.add(try await sources.fresh(), from: .fresh)
        assembly.add(try await sources.popular(), from: .popular)
        let order = FeedShuffle.order(seed: position.seed, epoch: position.page)
        let exploring = assembly.exploring(try await sources.explore(order: order, count: limit))
        let recycleCount = assembly.recycleCount(exploring: exploring)
        let recycled = recycleCount > 0
            ? try await sources.leastRecentlySeen(count: recycleCount, excluding: Set(assembly.origins.keys).union(exploring)) : []

        var previousUploader: String?
        if let id = position.lastPostID,
           let row = try await connection.query("SELECT uploader, username FROM posts WHERE id = \(id)", logger: logger).collect().first {
            let (uploader, username) = try row.decode((String?, String?).self)
            previousUploader = UploaderKey.key(uploader: uploader, username: username)
        }
        let page = assembly.page(
            described: try await sources.describe(assembly.described(exploring: exploring, recycled: recycled)),
            exploring: exploring, recycled: recycled, profile: respelled,
            lengthPrior: try await lengthPrior(connection, logger: logger),
            position: position, now: now, previousUploader: previousUploader
        )
        return try await present(connection, userID: userID, page: page, logger: logger)
    }

    /// The chosen candidates as items with the viewer's state and their reasons.
    private static func present(_ connection: PostgresConnection, userID: Int64, page: [ScoredCandidate], logger: Logger) async throws -> [ForYouItem] {
        guard !page.isEmpty else { return [] }
        let ids = page.map(\.candidate.postID)
        let rows = try await connection.query("""
            SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(userID) AND s.post_id = p.id
            WHERE p.id = ANY(\(ids))
            """, logger: logger).collect().map(PostgresFeedRow.init)
        let byID = Dictionary(rows.map { ($0.id, $0) }) { first, _ in first }
        let items = try await Self.items(connection, rows: ids.compactMap { byID[$0] }, logger: logger)
        var titles: [Int64: String] = [:]
        let anchors = Array(ForYouAssembly.anchorIDs(of: page))
        if !anchors.isEmpty {
            for row in try await connection.query(
                "SELECT id, description, shortcode, folder_name FROM posts WHERE id = ANY(\(anchors))", logger: logger
            ).collect() {
                let (id, description, shortcode, folderName) = try row.decode((Int64, String?, String?, String).self)
                titles[id] = ReasonText.title(description: description, shortcode: shortcode, folderName: folderName)
            }
        }
        return ForYouAssembly.items(items, page: page, titles: titles)
    }

    /// Events other than impressions, counted up to `atMost` (a walk of the person's events on
    /// `watch_events_by_user_time` that stops there).
    static func signalCount(_ connection: PostgresConnection, userID: Int64, atMost: Int, logger: Logger) async throws -> Int {
        let rows = try await connection.query("""
            SELECT count(*) FROM (SELECT 1 FROM watch_events WHERE user_id = \(userID) AND type <> \(EventType.impression.code)
                                  LIMIT \(max(0, atMost))) capped
            """, logger: logger).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    // MARK: - Latest

    /// One page of Latest: a keyset walk of `posts_ready_by_added` backwards from
    /// (`date_added`, id) of the last post served (the planner picks a filter's own index when
    /// it keeps few posts, as SQLite's driver choice does by hand).
    public func latestPage(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> (items: [FeedItem], next: LatestPosition?) {
        guard (1...Self.maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxFeedPage) posts, not \(limit)")
        }
        return try await snapshot { connection in
            let resolved = try await PostgresFeedFilter.resolve(connection, filter, userID: userID, logger: logger)
            if resolved.matchesNothing { return ([], nil) }
            var query = PostgresFeedSQL()
            query.sql = """
                SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at, p.date_added
                FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id
                """
            query.appendConditions(userID: userID, filter: resolved)
            if let after {
                query.sql += " AND (p.date_added, p.id) < (\(query.bind(after.addedAt)), \(query.bind(after.id)))"
            }
            query.sql += " ORDER BY p.date_added DESC, p.id DESC LIMIT \(query.bind(limit + 1))"
            let rows = try await connection.query(query.query, logger: logger).collect()
            let found = try rows.map { row in (row: try PostgresFeedRow(row), addedAt: try row.makeRandomAccess()[7].decode(Double.self)) }
            let page = found.prefix(limit)
            let items = try await Self.items(connection, rows: page.map(\.row), logger: logger)
            guard found.count > limit, let last = page.last else { return (items, nil) }
            return (items, LatestPosition(addedAt: last.addedAt, id: last.row.id))
        }
    }
}

/// A person's For You profile from the stored aggregates (SQLite's `ForYouProfileQuery`), with
/// bounded work whatever the length of their history.
enum PostgresForYouProfile {
    static func profile(_ connection: PostgresConnection, userID: Int64, now: Date, logger: Logger) async throws -> UserProfile {
        let affinities = try await connection.query(
            "SELECT kind, key, score, updated_at FROM user_affinities WHERE user_id = \(userID)", logger: logger
        ).collect().map { row in
            let (kind, key, score, updatedAt) = try row.decode((Int, String, Double, Double).self)
            return (kind: kind, key: key, score: score, updatedAt: Date(timeIntervalSince1970: updatedAt))
        }
        return ForYouAssembly.profile(
            affinities: affinities, signals: try await signals(connection, userID: userID, logger: logger),
            signalCount: try await PostgresStore.signalCount(connection, userID: userID, atMost: UserProfile.signalsForForYou, logger: logger),
            recentTags: try await recentTags(connection, userID: userID, now: now, logger: logger), now: now
        )
    }

    /// The newest watched rows with a positive label (a walk of `user_post_signals_history`).
    /// Explicit approval is the post's current state (favorited, or rated 4 or 5).
    static func signals(_ connection: PostgresConnection, userID: Int64, logger: Logger) async throws -> [PostSignal] {
        try await connection.query("""
            SELECT u.post_id, u.seen_at, u.watched_at, u.label,
                   EXISTS (SELECT 1 FROM post_user_state s WHERE s.user_id = u.user_id AND s.post_id = u.post_id
                           AND (s.favorited_at IS NOT NULL OR s.rating >= 4))
            FROM user_post_signals u
            WHERE u.user_id = \(userID) AND u.watched_at IS NOT NULL AND u.label > 0
            ORDER BY u.watched_at DESC, u.post_id DESC LIMIT \(UserProfile.maxAnchors)
            """, logger: logger).collect().map { row in
            let (postID, seenAt, watchedAt, label, explicit) = try row.decode((Int64, Double, Double, Double, Bool).self)
            return PostSignal(
                postID: postID, seenAt: Date(timeIntervalSince1970: seenAt), watchedAt: Date(timeIntervalSince1970: watchedAt),
                label: label, explicit: explicit
            )
        }
    }

    /// Tags of the posts served to the person lately, once per post carrying them: the newest
    /// `recentWindow` rows of `user_post_signals_by_seen` within `recentSeconds`.
    static func recentTags(_ connection: PostgresConnection, userID: Int64, now: Date, logger: Logger) async throws -> [String] {
        try await connection.query("""
            SELECT t.name FROM (SELECT post_id FROM user_post_signals
                                WHERE user_id = \(userID) AND seen_at >= \(now.addingTimeInterval(-UserProfile.recentSeconds).timeIntervalSince1970)
                                ORDER BY seen_at DESC LIMIT \(UserProfile.recentWindow)) recent
            JOIN post_tag_ids x ON x.post_id = recent.post_id JOIN tags t ON t.id = x.tag_id
            """, logger: logger).collect().map { try $0.decode(String.self) }
    }
}
