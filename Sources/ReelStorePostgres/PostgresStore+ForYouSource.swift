import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// For You's walks on PostgreSQL (see `ForYouSource`; ReelForYou's `ForYouFeed` ranks what they
/// find): each reads a bounded slice of one index and keeps only posts the person may be served —
/// ready, kept by the filter, not hidden, not sent before (one primary-key probe of
/// `user_post_signals` per post) — in the walk's own order. A batch of walks is one query.
extension PostgresStore: ForYouSource {
    public func resolve(_ filter: FeedFilter, userID: Int64) async throws -> ResolvedFeedFilter {
        try await snapshot { connection in try await ResolvedFeedFilter.resolve(connection, filter, userID: userID, logger: logger) }
    }

    public func signalCount(userID: Int64, atMost: Int) async throws -> Int {
        try await readPlanned { connection in try await Self.signalCount(connection, userID: userID, atMost: atMost, logger: logger) }
    }

    /// Events other than impressions, counted up to `atMost` (a walk of the person's events on
    /// `watch_events_by_user_time` that stops there).
    static func signalCount(_ connection: PostgresConnection, userID: Int64, atMost: Int, logger: Logger) async throws -> Int {
        var count: Int64 = 0
        for try await value in try await connection.execute(SignalCount(userID: userID, atMost: atMost), logger: logger) { count = value }
        return Int(count)
    }

    /// Bounded whatever the length of the history: the newest positive signals walk
    /// `user_post_signals_history`, the recent tags `user_post_signals_by_seen`.
    public func profileRows(userID: Int64, limits: ProfileRowLimits, now: Date) async throws -> ProfileRows {
        try await snapshot { connection in
            let affinities = try await connection.query(
                "SELECT kind, key, score, updated_at FROM user_affinities WHERE user_id = \(userID)", logger: logger
            ).collect().compactMap { row -> AffinityRow? in
                let (kind, key, score, updatedAt) = try row.decode((Int, String, Double, Double).self)
                return EventEffects.AffinityKind(rawValue: kind).map {
                    AffinityRow(kind: $0, key: key, score: score, updatedAt: Date(timeIntervalSince1970: updatedAt))
                }
            }
            let signals = try await connection.query("""
                SELECT u.post_id, u.seen_at, u.watched_at, u.label,
                       EXISTS (SELECT 1 FROM post_user_state s WHERE s.user_id = u.user_id AND s.post_id = u.post_id
                               AND (s.favorited_at IS NOT NULL OR s.rating >= 4))
                FROM user_post_signals u
                WHERE u.user_id = \(userID) AND u.watched_at IS NOT NULL AND u.label > 0
                ORDER BY u.watched_at DESC, u.post_id DESC LIMIT \(limits.signals)
                """, logger: logger).collect().map { row in
                let (postID, seenAt, watchedAt, label, explicit) = try row.decode((Int64, Double, Double, Double, Bool).self)
                return PostSignal(
                    postID: postID, seenAt: Date(timeIntervalSince1970: seenAt), watchedAt: Date(timeIntervalSince1970: watchedAt),
                    label: label, explicit: explicit
                )
            }
            let recentTags = try await connection.query("""
                SELECT t.name FROM (SELECT post_id FROM user_post_signals
                                    WHERE user_id = \(userID) AND seen_at >= \(now.addingTimeInterval(-limits.recentSeconds).timeIntervalSince1970)
                                    ORDER BY seen_at DESC LIMIT \(limits.recentWindow)) recent
                JOIN post_tag_ids x ON x.post_id = recent.post_id JOIN tags t ON t.id = x.tag_id
                """, logger: logger).collect().map { try $0.decode(String.self) }
            return ProfileRows(
                affinities: affinities, signals: signals,
                signalCount: try await Self.signalCount(connection, userID: userID, atMost: limits.signalCount, logger: logger),
                recentTags: recentTags
            )
        }
    }

    public func maxPostID() async throws -> Int64 {
        try await read { connection in
            try await connection.query("SELECT coalesce(max(id), 0) FROM posts", logger: logger).collect().first?.decode(Int64.self) ?? 0
        }
    }

    /// One row per anchor with its list as two arrays: a page reads up to 50 × 30 pairs, and a
    /// row each cost more to decode than the query took.
    public func neighbors(of anchors: [Int64], perAnchor: Int) async throws -> [Int64: [Neighbor]] {
        guard !anchors.isEmpty else { return [:] }
        return try await read { connection in
            let rows = try await connection.query("""
                SELECT a.post_id, n.ids, n.scores
                FROM unnest(\(anchors)::bigint[]) AS a(post_id)
                CROSS JOIN LATERAL (SELECT array_agg(neighbor_id ORDER BY score DESC, neighbor_id) AS ids,
                                           array_agg(score ORDER BY score DESC, neighbor_id) AS scores
                                    FROM (SELECT neighbor_id, score FROM post_neighbors WHERE post_id = a.post_id
                                          ORDER BY score DESC, neighbor_id LIMIT \(perAnchor)) best) n
                WHERE n.ids IS NOT NULL
                """, logger: logger).collect()
            var lists: [Int64: [Neighbor]] = [:]
            for row in rows {
                let (anchor, ids, scores) = try row.decode((Int64, [Int64], [Double]).self)
                lists[anchor] = zip(ids, scores).map { Neighbor(postID: $0, score: $1) }
            }
            return lists
        }
    }

    public func servable(_ ids: [Int64], userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        var query = PostgresFeedSQL()
        query.sql = "SELECT p.id FROM posts p"
        let among = " AND p.id = ANY(\(query.bind(ids)))"
        return try await postIDs(query.servable(userID: userID, filter: filter, order: "p.id", limit: ids.count, extra: among))
    }

    public func tags(named names: [String]) async throws -> [String: (id: Int64, name: String)] {
        guard !names.isEmpty else { return [:] }
        return try await read { connection in
            var byKey: [String: (id: Int64, name: String)] = [:]
            for row in try await connection.query(
                "SELECT name_key, id, name FROM tags WHERE name_key = ANY(\(names.map(TagName.key)))", logger: logger
            ).collect() {
                let (key, id, name) = try row.decode((String, Int64, String).self)
                byKey[key] = (id, name)
            }
            var found: [String: (id: Int64, name: String)] = [:]
            for name in names { found[name] = byKey[TagName.key(name)] }
            return found
        }
    }

    public func tagWalks(_ walks: [IndexWalk<Int64>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [[Int64]] {
        try await self.walks(walks, limit: limit, scanLimit: scanLimit, userID: userID, filter: filter,
                             walk: "SELECT post_id AS id FROM post_tag_ids WHERE tag_id = w.key AND post_id < w.start ORDER BY post_id DESC")
    }

    public func uploaderWalks(_ walks: [IndexWalk<String>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [[Int64]] {
        try await self.walks(walks, limit: limit, scanLimit: scanLimit, userID: userID, filter: filter,
                             walk: "SELECT id FROM posts WHERE uploader_key = w.key AND status = 'ready' AND id < w.start ORDER BY id DESC")
    }

    /// One query: per walk, the servable posts of `walk`'s first `scanLimit` rows (a subquery
    /// over `w.key` and `w.start` naming its posts `id`), newest first, at most `limit`; in the
    /// order of `walks`. A walk from the newest starts below the largest id there can be.
    private func walks<Key: PostgresArrayEncodable & PostgresNonThrowingEncodable>(
        _ walks: [IndexWalk<Key>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter, walk: String
    ) async throws -> [[Int64]] {
        guard !walks.isEmpty else { return [] }
        var query = PostgresFeedSQL()
        let keyList = query.bind(walks.map(\.key))
        let startList = query.bind(walks.map { $0.below ?? Int64.max })
        query.sql = """
            SELECT w.ord, x.id FROM unnest(\(keyList), \(startList)::bigint[]) WITH ORDINALITY AS w(key, start, ord)
            CROSS JOIN LATERAL (SELECT p.id FROM (\(walk) LIMIT \(scanLimit)) m JOIN posts p ON p.id = m.id
            """
        query.appendConditions(userID: userID, filter: filter)
        query.sql += " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = \(query.bind(userID)) AND seen.post_id = p.id)"
        query.sql += " ORDER BY p.id DESC LIMIT \(query.bind(limit))) x ORDER BY w.ord, x.id DESC"
        var found = Array(repeating: [Int64](), count: walks.count)
        for row in try await read({ connection in try await connection.query(query.query, logger: logger).collect() }) {
            let (ordinal, id) = try row.decode((Int64, Int64).self)
            found[Int(ordinal) - 1].append(id)
        }
        return found
    }

    public func freshPosts(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        try await postIDs(Self.freshQuery(limit: limit, scanLimit: scanLimit, userID: userID, filter: filter))
    }

    /// `freshPosts`' statement (the plan tests read it).
    static func freshQuery(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) -> PostgresQuery {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id FROM (SELECT id, date_added FROM posts WHERE status = 'ready' ORDER BY date_added DESC, id DESC LIMIT \(scanLimit)) m
            JOIN posts p ON p.id = m.id
            """
        // Ordered by the walk's own columns, so the join keeps its order and stops at the
        // limit (ordered by p's, PostgreSQL hashed the whole posts table: 3 ms at 20,000 posts).
        return query.servable(userID: userID, filter: filter, order: "m.date_added DESC, m.id DESC", limit: limit)
    }

    public func popularPosts(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        try await postIDs(Self.popularQuery(limit: limit, scanLimit: scanLimit, userID: userID, filter: filter))
    }

    /// `popularPosts`' statement (the plan tests read it).
    static func popularQuery(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) -> PostgresQuery {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id FROM (SELECT post_id, log_score FROM post_popularity ORDER BY log_score DESC, post_id DESC LIMIT \(scanLimit)) m
            JOIN posts p ON p.id = m.post_id
            """
        return query.servable(userID: userID, filter: filter, order: "m.log_score DESC, m.post_id DESC", limit: limit)
    }

    public func shuffledPosts(order: FeedShuffle.EpochOrder, phase: Int, limit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        let key = "p.shuffle\(order.column)"
        let direction = order.descending ? "DESC" : "ASC"
        var query = PostgresFeedSQL()
        query.sql = "SELECT p.id FROM posts p"
        let upperPart = (phase == 0) != order.descending
        let range = upperPart ? " AND \(key) >= \(query.bind(order.start))" : " AND \(key) < \(query.bind(order.start))"
        return try await postIDs(query.servable(userID: userID, filter: filter, order: "\(key) \(direction), p.id \(direction)", limit: limit, extra: range))
    }

    public func leastRecentlySeen(limit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        var query = PostgresFeedSQL()
        query.sql = "SELECT p.id FROM user_post_signals u JOIN posts p ON p.id = u.post_id"
        query.appendConditions(userID: userID, filter: filter)
        query.sql += " AND u.user_id = \(query.bind(userID)) ORDER BY u.seen_at, u.post_id LIMIT \(query.bind(limit))"
        return try await postIDs(query.query)
    }

    public func candidateFacts(_ ids: [Int64]) async throws -> [CandidateFacts] {
        guard !ids.isEmpty else { return [] }
        return try await read { connection in
            try await connection.query("""
                SELECT p.id, p.uploader, p.username, p.date_added, p.duration, pp.log_score,
                       ARRAY(SELECT t.name FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id ORDER BY x.seq)
                FROM posts p LEFT JOIN post_popularity pp ON pp.post_id = p.id
                WHERE p.id = ANY(\(ids))
                """, logger: logger).collect().map { row in
                let (id, uploader, username, addedAt, duration, logScore, tags) =
                    try row.decode((Int64, String?, String?, Double, Double?, Double?, [String]).self)
                return CandidateFacts(
                    postID: id, uploaderKey: UploaderKey.key(uploader: uploader, username: username), tags: tags,
                    addedAt: Date(timeIntervalSince1970: addedAt), durationSeconds: duration, logPopularity: logScore
                )
            }
        }
    }

    public func uploaderKey(postID: Int64) async throws -> String? {
        try await read { connection in
            guard let row = try await connection.query("SELECT uploader, username FROM posts WHERE id = \(postID)", logger: logger).collect().first else {
                return nil
            }
            let (uploader, username) = try row.decode((String?, String?).self)
            return UploaderKey.key(uploader: uploader, username: username)
        }
    }

    public func lengthBuckets() async throws -> [LengthBucketCount] {
        try await read { connection in try await Self.lengthBuckets(connection, logger: logger) }
    }

    public func titleParts(_ ids: [Int64]) async throws -> [Int64: PostTitleParts] {
        guard !ids.isEmpty else { return [:] }
        return try await read { connection in
            var parts: [Int64: PostTitleParts] = [:]
            for row in try await connection.query(
                "SELECT id, description, shortcode, folder_name FROM posts WHERE id = ANY(\(ids))", logger: logger
            ).collect() {
                let (id, description, shortcode, folderName) = try row.decode((Int64, String?, String?, String).self)
                parts[id] = PostTitleParts(description: description, shortcode: shortcode, folderName: folderName)
            }
            return parts
        }
    }

    public func markSent(userID: Int64, postIDs: [Int64], now: Date) async throws {
        guard !postIDs.isEmpty else { return }
        try await write { connection in
            _ = try await connection.query("""
                INSERT INTO user_post_signals AS u (user_id, post_id, seen_at)
                SELECT \(userID), p.id, \(now.timeIntervalSince1970) FROM posts p WHERE p.id = ANY(\(postIDs))
                ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = greatest(u.seen_at, excluded.seen_at)
                """, logger: logger)
        }
    }

    /// The first column of every row of `query`, as post ids.
    private func postIDs(_ query: PostgresQuery) async throws -> [Int64] {
        try await read { connection in try await connection.query(query, logger: logger).collect().map { try $0.decode(Int64.self) } }
    }
}

extension PostgresFeedSQL {
    /// This SQL (which selects `p.id` from a FROM clause naming the post `p`) kept to posts the
    /// person may be served, with `extra` conditions on `p`, in `order`, at most `limit`.
    func servable(userID: Int64, filter: ResolvedFeedFilter, order: String, limit: Int, extra: String = "") -> PostgresQuery {
        var query = self
        query.appendConditions(userID: userID, filter: filter)
        query.sql += extra
        query.sql += " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = \(query.bind(userID)) AND seen.post_id = p.id)"
        query.sql += " ORDER BY \(order) LIMIT \(query.bind(limit))"
        return query.query
    }
}

/// Prepared once per connection: every feed request that names no mode asks it (For You from 20
/// signals), and as an unnamed statement its parsing and planning cost ten times its run.
struct SignalCount: PostgresPreparedStatement {
    static let sql = """
        SELECT count(*) FROM (SELECT 1 FROM watch_events WHERE user_id = $1 AND type <> $2 LIMIT $3) capped
        """
    typealias Row = Int64

    let userID: Int64
    let atMost: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(userID)
        bindings.append(EventType.impression.code)
        bindings.append(max(0, atMost))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}
