import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

/// The feed's rows on PostgreSQL (see `FeedBackend`; the walk over epochs, the cursors and the
/// post cache are the store core's). A page is one statement on a pooled connection: the
/// viewer's libraries, hidden posts and uploaders and the filter's tag names are resolved inside
/// it (`appendConditions(userID:unresolved:)`), and `status = 'ready' AND shuffleN ≥ start AND
/// (shuffleN, id) > cursor ORDER BY shuffleN, id LIMIT n` is answered by the partial index
/// `posts_ready_by_shuffleN` with one seek: O(log n) at any depth. PostgreSQL's planner weighs
/// the filters' own indexes itself, so no driver is chosen here.
extension PostgresStore: FeedBackend {
    /// The largest page served (the store core's bound).
    public static var maxFeedPage: Int { FeedPaging.maxPage }

    public func shuffledRows(
        userID: Int64, filter: FeedFilter, order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int
    ) async throws -> [FeedRow]? {
        if PostgresFeedSQL.isUnfiltered(filter),
           let rows = try await unfilteredRows(userID: userID, order: order, phase: phase, after: after, limit: limit) {
            return rows
        }
        let query = try await PostgresFeedSQL.page(userID: userID, order: order, phase: phase, after: after, limit: limit) {
            try await $0.appendConditions(userID: userID, unresolved: filter, store: self)
        }
        return try await read { connection in try await connection.query(query, logger: logger).collect().map(FeedRow.init) }
    }

    public func countMatches(userID: Int64, filter: FeedFilter) async throws -> Int? {
        var query = PostgresFeedSQL()
        query.sql = "SELECT count(*) FROM posts p"
        try await query.appendConditions(userID: userID, unresolved: filter, store: self)
        return try await read { connection in
            Int(try await connection.query(query.query, logger: logger).collect().first?.decode(Int64.self) ?? 0)
        }
    }

    /// A keyset walk of `posts_ready_by_added` backwards from (`date_added`, id) of the last post
    /// served (the planner picks a filter's own index when it keeps few posts, as SQLite's driver
    /// choice does by hand).
    public func latestRows(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> [(row: FeedRow, addedAt: Double)]? {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at, p.date_added
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id
            """
        try await query.appendConditions(userID: userID, unresolved: filter, store: self)
        if let after {
            query.sql += " AND (p.date_added, p.id) < (\(query.bind(after.addedAt)), \(query.bind(after.id)))"
        }
        query.sql += " ORDER BY p.date_added DESC, p.id DESC LIMIT \(query.bind(limit))"
        return try await read { connection in
            try await connection.query(query.query, logger: logger).collect().map { row in
                (row: try FeedRow(row), addedAt: try row.makeRandomAccess()[7].decode(Double.self))
            }
        }
    }

    public func viewerRows(userID: Int64, ids: [Int64]) async throws -> [FeedRow] {
        try await read { connection in
            try await connection.query("""
                SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at
                FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(userID) AND s.post_id = p.id
                WHERE p.id = ANY(\(ids))
                """, logger: logger).collect().map(FeedRow.init)
        }
    }

    /// The posts with their tags and flags in one statement (so refs and revision agree, and a
    /// page whose posts the cache misses costs one more round trip, not a transaction).
    /// On the planned connections, as a prepared statement: on a large library almost every
    /// page misses the post cache, and this read then came second on a pooled connection,
    /// parsed and planned each time.
    public func postsForCache(ids: [Int64]) async throws -> [FeedItem] {
        try await readPlanned { connection in
            var items: [FeedItem] = []
            for try await item in try await connection.execute(PostsForCache(ids: ids), logger: logger) { items.append(item) }
            return items
        }
    }
}

/// The posts of `ids` with their tag and flag refs (in link order) and their revision.
struct PostsForCache: PostgresPreparedStatement {
    typealias Row = FeedItem

    let ids: [Int64]

    static let name = "reelhouse_posts_for_cache"

    /// Each post's refs in one lateral aggregate per link table, names looked up by key: as
    /// four `ARRAY(… JOIN …)` subplans PostgreSQL hashed the whole vocabulary once per post and
    /// subplan (2 ms for a page of 10 on 1M posts, against 0.4 ms).
    static let sql: String = {
        let refs = { (link: String, table: String, column: String, alias: String) in
            """
            CROSS JOIN LATERAL (
                SELECT coalesce(array_agg(l.\(column) ORDER BY l.seq), '{}') AS ids,
                       coalesce(array_agg((SELECT v.name FROM \(table) v WHERE v.id = l.\(column)) ORDER BY l.seq), '{}') AS names
                FROM \(link) l WHERE l.post_id = posts.id
            ) \(alias)
            """
        }
        return """
            SELECT \(PostgresStore.postColumns), revision, t.ids, t.names, f.ids, f.names
            FROM posts \(refs("post_tag_ids", "tags", "tag_id", "t")) \(refs("post_flag_ids", "flags", "flag_id", "f"))
            WHERE posts.id = ANY($1)
            """
    }()

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(ids)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> FeedItem {
        let cells = row.makeRandomAccess()
        let extra = cells.count - 5
        let id = try cells["id"].decode(Int64.self)
        let tags = zip(try cells[extra + 1].decode([Int64].self), try cells[extra + 2].decode([String].self))
            .map { TagCount(id: $0, name: $1, count: 0) }
        let flags = zip(try cells[extra + 3].decode([Int64].self), try cells[extra + 4].decode([String].self))
            .map { TagCount(id: $0, name: $1, count: 0) }
        let post = try PostgresStore.post(row, tags: [id: tags.map(\.name)], flags: [id: flags.map(\.name)])
        return FeedItem(post: post, viewer: .none, tagRefs: tags, flagRefs: flags, revision: try cells[extra].decode(Int64.self))
    }
}

// Outside the conformance: a name this close to `feedPage` there draws a near-miss warning.
extension PostgresStore {
    /// PostgreSQL's plan for the page query `feedPage` would run first at `position`, one line
    /// per plan node (`EXPLAIN`); for the tests that pin the index use.
    func feedQueryPlan(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> [String] {
        let after = position.lastKey.flatMap { key in position.lastID.map { FeedKeyset(key: key, id: $0) } }
        let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
        var query = try await PostgresFeedSQL.page(userID: userID, order: order, phase: position.phase, after: after, limit: limit + 1) {
            try await $0.appendConditions(userID: userID, unresolved: filter, store: self)
        }
        query.sql = "EXPLAIN " + query.sql
        return try await read { connection in try await connection.query(query, logger: logger).collect().map { try $0.decode(String.self) } }
    }
}

extension ResolvedFeedFilter {
    /// `filter` for `userID` on `connection`. `StoreError.notFound` when the filter names a
    /// library the viewer is not granted.
    static func resolve(_ connection: PostgresConnection, _ filter: FeedFilter, userID: Int64, logger: Logger) async throws -> ResolvedFeedFilter {
        let scope = try await PostgresStore.scope(connection, userID: userID, requested: filter.library, logger: logger)
        let hidden = try await connection.query("""
            SELECT EXISTS (SELECT 1 FROM hidden_posts WHERE user_id = \(userID)),
                   ARRAY(SELECT uploader_key FROM hidden_uploaders WHERE user_id = \(userID) ORDER BY uploader_key)
            """, logger: logger).collect()
        let (hidesPosts, hiddenUploaderKeys) = try hidden.first?.decode((Bool, [String]).self) ?? (false, [])
        var tagIDs: [Int64]?
        if let wanted = ResolvedFeedFilter.wantedTags(filter) {
            tagIDs = try await Vocabulary.tags.existingIDs(connection, names: wanted, logger: logger)
        }
        return ResolvedFeedFilter(
            filter, tagIDs: tagIDs,
            excludeTagIDs: try await Vocabulary.tags.existingIDs(connection, names: filter.excludeTags, logger: logger),
            scope: scope, hidesPosts: hidesPosts, hiddenUploaderKeys: hiddenUploaderKeys
        )
    }
}

extension FeedRow {
    /// The first seven columns of a narrow select: the post's id and revision, its key, the
    /// viewer's state (a catalog row has its sort keys after them).
    init(_ row: PostgresRow) throws {
        let cells = row.makeRandomAccess()
        let id = try cells[0].decode(Int64.self)
        let revision = try cells[1].decode(Int64.self)
        let key = try cells[2].decode(Int64.self)
        let favoritedAt = try cells[3].decode(Double?.self)
        let rating = try cells[4].decode(Int32?.self)
        let position = try cells[5].decode(Double?.self)
        let seenAt = try cells[6].decode(Double?.self)
        let untouched = favoritedAt == nil && rating == nil && position == nil && seenAt == nil
        self.init(
            id: id, revision: revision, key: key,
            viewer: untouched ? .none : PostgresStore.viewerState(favoritedAt: favoritedAt, rating: rating, position: position, seenAt: seenAt)
        )
    }
}
