import Foundation
import GRDB
import ReelModels
import ReelStore

/// For You's walks in SQL (see `ForYouSource`; ReelForYou's `ForYouFeed` ranks what they find).
/// Each is an index walk that keeps only posts the person may be served — ready, kept by the
/// filter, not hidden, and not sent before (one primary-key lookup in `user_post_signals` per
/// post walked, never the person's whole history) — and stops after a bounded number of rows.
extension SQLiteStore: ForYouSource {
    public func resolve(_ filter: FeedFilter, userID: Int64) async throws -> ResolvedFeedFilter {
        try await read { db in try ResolvedFeedFilter.resolve(db, filter, userID: userID) }
    }

    public func signalCount(userID: Int64, atMost: Int) async throws -> Int {
        try await read { db in try Self.signalCount(db, userID: userID, atMost: atMost) }
    }

    /// Events other than impressions, counted up to `atMost` (an index walk of the person's
    /// events that stops there).
    static func signalCount(_ db: Database, userID: Int64, atMost: Int) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM (SELECT 1 FROM watch_events INDEXED BY watch_events_by_user_time
                                  WHERE user_id = ? AND type <> ? LIMIT ?)
            """), arguments: [userID, EventType.impression.code, max(0, atMost)]) ?? 0
    }

    /// Bounded whatever the length of the history: the newest positive signals are an index walk
    /// of `user_post_signals_history`, the recent tags one of `user_post_signals_by_seen`.
    public func profileRows(userID: Int64, limits: ProfileRowLimits, now: Date) async throws -> ProfileRows {
        try await read { db in
            let affinities = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT kind, key, score, updated_at FROM user_affinities WHERE user_id = ?"), arguments: [userID]
            ).compactMap { row in
                EventEffects.AffinityKind(rawValue: row[0]).map { AffinityRow(kind: $0, key: row[1], score: row[2], updatedAt: RowDecoding.date(row[3])) }
            }
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT u.post_id, u.seen_at, u.watched_at, u.label,
                       EXISTS (SELECT 1 FROM post_user_state s WHERE s.user_id = u.user_id AND s.post_id = u.post_id
                               AND (s.favorited_at IS NOT NULL OR s.rating >= 4)) AS explicit
                FROM user_post_signals u INDEXED BY user_post_signals_history
                WHERE u.user_id = ? AND u.watched_at IS NOT NULL AND u.label > 0
                ORDER BY u.watched_at DESC, u.post_id DESC LIMIT ?
                """), arguments: [userID, limits.signals])
            var signals: [PostSignal] = []
            while let row = try rows.next() {
                signals.append(PostSignal(
                    postID: row[0], seenAt: RowDecoding.date(row[1]), watchedAt: RowDecoding.date(row[2]), label: row[3], explicit: row[4]
                ))
            }
            let recentTags = try String.fetchAll(db.cachedStatement(sql: """
                SELECT t.name FROM (SELECT post_id FROM user_post_signals INDEXED BY user_post_signals_by_seen
                                    WHERE user_id = ? AND seen_at >= ? ORDER BY seen_at DESC LIMIT ?) recent
                JOIN post_tag_ids x ON x.post_id = recent.post_id JOIN tags t ON t.id = x.tag_id
                """), arguments: [userID, RowDecoding.seconds(now.addingTimeInterval(-limits.recentSeconds)), limits.recentWindow])
            return ProfileRows(
                affinities: affinities, signals: signals, signalCount: try Self.signalCount(db, userID: userID, atMost: limits.signalCount),
                recentTags: recentTags
            )
        }
    }

    public func maxPostID() async throws -> Int64 {
        try await read { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM posts")) ?? 0 }
    }

    public func neighbors(of anchors: [Int64], perAnchor: Int) async throws -> [Int64: [Neighbor]] {
        guard !anchors.isEmpty else { return [:] }
        return try await read { db in
            var lists: [Int64: [Neighbor]] = [:]
            let statement = try db.cachedStatement(sql: "SELECT neighbor_id, score FROM post_neighbors WHERE post_id = ? ORDER BY score DESC LIMIT ?")
            for anchor in anchors {
                var list: [Neighbor] = []
                // A cursor reads each row in place (this is the page's largest read: anchors × 30).
                let rows = try Row.fetchCursor(statement, arguments: [anchor, perAnchor])
                while let row = try rows.next() { list.append(Neighbor(postID: row[0], score: row[1])) }
                if !list.isEmpty { lists[anchor] = list }
            }
            return lists
        }
    }

    public func servable(_ ids: [Int64], userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await read { db in
            try ForYouWalk(db: db, userID: userID, filter: filter).ids(
                "SELECT p.id FROM posts p{conditions} AND p.id IN (\(Self.placeholders(ids.count))) ORDER BY p.id LIMIT ?",
                after: StatementArguments(ids), limit: ids.count, cached: false
            )
        }
    }

    public func tags(named names: [String]) async throws -> [String: (id: Int64, name: String)] {
        try await read { db in
            var found: [String: (id: Int64, name: String)] = [:]
            for name in names {
                if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name FROM tags WHERE name = ?"), arguments: [name]) {
                    found[name] = (row[0], row[1])
                }
            }
            return found
        }
    }

    public func tagWalks(_ walks: [IndexWalk<Int64>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [[Int64]] {
        try await read { db in
            let walk = ForYouWalk(db: db, userID: userID, filter: filter)
            return try walks.map { entry in
                try walk.ids("""
                    SELECT p.id FROM (SELECT post_id FROM post_tag_ids INDEXED BY post_tag_ids_by_tag_id
                                      WHERE tag_id = ?\(entry.below == nil ? "" : " AND post_id < ?") ORDER BY post_id DESC LIMIT \(scanLimit)) m
                    CROSS JOIN posts p ON p.id = m.post_id{conditions} LIMIT ?
                    """, before: [entry.key] + StatementArguments(entry.below.map { [$0] } ?? []), limit: limit)
            }
        }
    }

    public func uploaderWalks(_ walks: [IndexWalk<String>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [[Int64]] {
        try await read { db in
            let walk = ForYouWalk(db: db, userID: userID, filter: filter)
            return try walks.map { entry in
                try walk.ids("""
                    SELECT p.id FROM (SELECT id FROM posts INDEXED BY posts_ready_by_uploader_key
                                      WHERE \(UploaderKeyFunction.name)(uploader, username) = ? AND status = 'ready'\(entry.below == nil ? "" : " AND id < ?")
                                      ORDER BY id DESC LIMIT \(scanLimit)) m
                    CROSS JOIN posts p ON p.id = m.id{conditions} LIMIT ?
                    """, before: [entry.key] + StatementArguments(entry.below.map { [$0] } ?? []), limit: limit)
            }
        }
    }

    public func freshPosts(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        try await read { db in
            try ForYouWalk(db: db, userID: userID, filter: filter).ids("""
                SELECT p.id FROM (SELECT id FROM posts INDEXED BY posts_ready_by_added WHERE status = 'ready'
                                  ORDER BY date_added DESC, id DESC LIMIT \(scanLimit)) m
                CROSS JOIN posts p ON p.id = m.id{conditions} LIMIT ?
                """, limit: limit)
        }
    }

    public func popularPosts(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        try await read { db in
            try ForYouWalk(db: db, userID: userID, filter: filter).ids("""
                SELECT p.id FROM (SELECT post_id FROM post_popularity INDEXED BY post_popularity_by_score
                                  ORDER BY log_score DESC LIMIT \(scanLimit)) m
                CROSS JOIN posts p ON p.id = m.post_id{conditions} LIMIT ?
                """, limit: limit)
        }
    }

    /// A walk of the epoch's shuffle index from its start (the shuffled feed's own walk, with its
    /// choice of a smaller driver for narrow filters), skipping what was sent.
    public func shuffledPosts(order: FeedShuffle.EpochOrder, phase: Int, limit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        try await read { db in
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: filter) { try FeedQuery.threshold(db, limit: limit) }
            let key = "p." + FeedShuffleColumns.name(order.column)
            var (sql, arguments) = FeedQuery.body(userID: userID, filter: filter, driver: driver, column: order.column)
            let upperPart = (phase == 0) != order.descending
            sql += (upperPart ? " AND \(key) >= ?" : " AND \(key) < ?") + ForYouWalk.unseen
            arguments += [order.start, userID]
            let direction = order.descending ? "DESC" : "ASC"
            sql = "SELECT p.id " + sql + " ORDER BY \(key) \(direction), p.id \(direction) LIMIT ?"
            return try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments + [limit])
        }
    }

    public func leastRecentlySeen(limit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        try await read { db in
            let (conditions, arguments) = FeedQuery.conditions(userID: userID, filter: filter)
            let sql = "SELECT p.id FROM user_post_signals u INDEXED BY user_post_signals_by_seen CROSS JOIN posts p ON p.id = u.post_id"
                + conditions + " AND u.user_id = ? ORDER BY u.seen_at ASC, u.post_id ASC LIMIT ?"
            return try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments + [userID, limit])
        }
    }

    public func candidateFacts(_ ids: [Int64]) async throws -> [CandidateFacts] {
        guard !ids.isEmpty else { return [] }
        return try await read { db in
            let rows = try Row.fetchCursor(db.makeStatement(sql: """
                SELECT p.id, p.uploader, p.username, p.date_added, p.duration, pp.log_score,
                       (SELECT group_concat(t.name, char(31)) FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id)
                FROM posts p LEFT JOIN post_popularity pp ON pp.post_id = p.id
                WHERE p.id IN (\(Self.placeholders(ids.count)))
                """), arguments: StatementArguments(ids))
            var facts: [CandidateFacts] = []
            while let row = try rows.next() {
                facts.append(CandidateFacts(
                    postID: row[0], uploaderKey: UploaderKey.key(uploader: row[1], username: row[2]),
                    tags: (row[6] as String?)?.split(separator: "\u{1F}").map(String.init) ?? [],
                    addedAt: RowDecoding.date(row[3]), durationSeconds: row[4], logPopularity: row[5]
                ))
            }
            return facts
        }
    }

    public func uploaderKey(postID: Int64) async throws -> String? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT uploader, username FROM posts WHERE id = ?"), arguments: [postID])
                .flatMap { UploaderKey.key(uploader: $0[0], username: $0[1]) }
        }
    }

    public func lengthBuckets() async throws -> [LengthBucketCount] {
        try await read { db in try Self.lengthBuckets(db) }
    }

    public func titleParts(_ ids: [Int64]) async throws -> [Int64: PostTitleParts] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            var parts: [Int64: PostTitleParts] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT id, description, shortcode, folder_name FROM posts WHERE id IN (\(Self.placeholders(ids.count)))",
                arguments: StatementArguments(ids)
            ) {
                parts[row[0]] = PostTitleParts(description: row[1], shortcode: row[2], folderName: row[3])
            }
            return parts
        }
    }

    public func markSent(userID: Int64, postIDs: [Int64], now: Date) async throws {
        guard !postIDs.isEmpty else { return }
        try await write { db in
            let mark = try db.cachedStatement(sql: """
                INSERT INTO user_post_signals (user_id, post_id, seen_at) VALUES (?, ?, ?)
                ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = max(seen_at, excluded.seen_at)
                """)
            for id in postIDs { try mark.execute(arguments: [userID, id, RowDecoding.seconds(now)]) }
        }
    }
}

/// One read's walks: SQL selecting one id with the serving conditions spliced in where it says
/// `{conditions}`, followed by "not sent to the person before".
struct ForYouWalk {
    let db: Database
    let userID: Int64
    let filter: ResolvedFeedFilter

    /// ` AND …` after `FeedQuery.conditions`: the person has no signal row for the post.
    static let unseen = " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = ? AND seen.post_id = p.id)"

    /// Runs `sql` with `before` ahead of the conditions' arguments, `after` behind the unseen
    /// check's, and `limit` last. `cached`: the statement's shape repeats (not for IN lists).
    func ids(_ sql: String, before: StatementArguments = [], after: StatementArguments = [], limit: Int, cached: Bool = true) throws -> [Int64] {
        let (conditions, arguments) = FeedQuery.conditions(userID: userID, filter: filter)
        let full = sql.replacingOccurrences(of: "{conditions}", with: conditions + Self.unseen)
        let statement = cached ? try db.cachedStatement(sql: full) : try db.makeStatement(sql: full)
        return try Int64.fetchAll(statement, arguments: before + arguments + [userID] + after + [limit])
    }
}
