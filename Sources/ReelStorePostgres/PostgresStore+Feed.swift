import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// The endless shuffled feed on PostgreSQL: the same epochs, phases and keyset cursor as
/// SQLite's (`FeedShuffle` decides the order, so a position from either store means the same
/// walk). A page is `status = 'ready' AND shuffleN ≥ start AND (shuffleN, id) > cursor ORDER BY
/// shuffleN, id LIMIT n`, which the partial index `posts_ready_by_shuffleN` answers with one
/// seek: O(log n) at any depth. Unlike SQLite, PostgreSQL's planner weighs the filters' own
/// indexes itself, so no driver is chosen here.
extension PostgresStore: FeedStore {
    /// The largest page served, so one request cannot ask for the whole library.
    public static let maxFeedPage = 500

    public func feedPage(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> (items: [FeedItem], next: FeedPosition?) {
        guard (1...Self.maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxFeedPage) posts, not \(limit)")
        }
        guard (0...1).contains(position.phase), (position.lastKey == nil) == (position.lastID == nil) else {
            throw StoreError.invalid("malformed feed position")
        }
        // One snapshot for the whole page, as SQLite's read transaction gives.
        return try await snapshot { connection in
            let resolved = try await PostgresFeedFilter.resolve(connection, filter, userID: userID, logger: logger)
            if resolved.matchesNothing { return ([], nil) }
            var position = position
            while true {
                let page = try await Self.walk(connection, userID: userID, filter: resolved, from: position, limit: limit, logger: logger)
                if !page.items.isEmpty { return page }
                if position.isEpochStart { return ([], nil) }
                position = position.nextEpoch
            }
        }
    }

    /// Counts every ready post the filter keeps: O(matches), it is not meant per page.
    public func countFeed(userID: Int64, filter: FeedFilter) async throws -> Int {
        try await snapshot { connection in
            let resolved = try await PostgresFeedFilter.resolve(connection, filter, userID: userID, logger: logger)
            if resolved.matchesNothing { return 0 }
            var query = PostgresFeedSQL()
            query.sql = "SELECT count(*) FROM posts p"
            query.appendConditions(userID: userID, filter: resolved)
            let rows = try await connection.query(query.query, logger: logger).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    /// Up to `limit` items of `from`'s epoch after `from`, and where the walk continues (as
    /// SQLite's `walk`: phase 0, then phase 1, reading one row more than asked to know whether
    /// the epoch goes on).
    private static func walk(
        _ connection: PostgresConnection, userID: Int64, filter: PostgresFeedFilter, from position: FeedPosition, limit: Int,
        logger: Logger
    ) async throws -> (items: [FeedItem], next: FeedPosition?) {
        let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
        var rows: [(phase: Int, row: PostgresFeedRow)] = []
        var phase = position.phase
        var after = position.lastKey.flatMap { key in position.lastID.map { (key: key, id: $0) } }
        while phase <= 1, rows.count <= limit {
            let query = PostgresFeedSQL.page(
                userID: userID, filter: filter, order: order, phase: phase, after: after, limit: limit + 1 - rows.count
            )
            for row in try await connection.query(query, logger: logger).collect() {
                rows.append((phase, try PostgresFeedRow(row)))
            }
            if rows.count <= limit {
                phase += 1
                after = nil
            }
        }
        let page = Array(rows.prefix(limit))
        let items = try await items(connection, rows: page.map(\.row), logger: logger)
        guard rows.count > limit, let last = page.last else { return (items, position.nextEpoch) }
        let next = FeedPosition(
            seed: position.seed, epoch: position.epoch, phase: last.phase, lastKey: last.row.feedKey, lastID: last.row.id
        )
        return (items, next)
    }

    /// The page's posts with their tag and flag refs and the viewer's state, in page order.
    static func items(_ connection: PostgresConnection, rows: [PostgresFeedRow], logger: Logger) async throws -> [FeedItem] {
        let ids = rows.map(\.id)
        let posts = try await Self.posts(connection, ids: ids, logger: logger)
        let byID = Dictionary(posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let tags = try await PostgresVocabulary.tags.refs(connection, postIDs: ids, logger: logger)
        let flags = try await PostgresVocabulary.flags.refs(connection, postIDs: ids, logger: logger)
        return rows.compactMap { row in
            byID[row.id].map { post in
                FeedItem(post: post, viewer: row.viewer, tagRefs: tags[row.id] ?? [], flagRefs: flags[row.id] ?? [], revision: row.revision)
            }
        }
    }
}

/// A feed filter with names turned into ids (SQLite's `ResolvedFeedFilter`).
struct PostgresFeedFilter: Sendable {
    /// Nil: no tag constraint. Empty: the filter named only unknown tags, so nothing matches.
    var anyTagIDs: [Int64]?
    var excludeTagIDs: [Int64]
    var kind: PostKind?
    var favoritesOnly: Bool
    /// Nil when the filter's minimum is absent or ≤ 0 (every post has rating ≥ 0).
    var minRating: Int?
    /// Nil: every library.
    var libraryIDs: [Int64]?
    var hidesPosts: Bool
    var hiddenUploaderKeys: [String]

    static func resolve(_ connection: PostgresConnection, _ filter: FeedFilter, userID: Int64, logger: Logger) async throws -> PostgresFeedFilter {
        let wanted = filter.tags.filter { !PostgresVocabulary.isBlank($0) }
        let libraryIDs = try await PostgresStore.scope(connection, userID: userID, requested: filter.library, logger: logger).libraryIDs
        let hidden = try await connection.query("""
            SELECT EXISTS (SELECT 1 FROM hidden_posts WHERE user_id = \(userID)),
                   ARRAY(SELECT uploader_key FROM hidden_uploaders WHERE user_id = \(userID) ORDER BY uploader_key)
            """, logger: logger).collect()
        let (hidesPosts, hiddenUploaderKeys) = try hidden.first?.decode((Bool, [String]).self) ?? (false, [])
        return PostgresFeedFilter(
            anyTagIDs: wanted.isEmpty ? nil : try await PostgresVocabulary.tags.existingIDs(connection, names: wanted, logger: logger),
            excludeTagIDs: try await PostgresVocabulary.tags.existingIDs(connection, names: filter.excludeTags, logger: logger),
            kind: filter.kind,
            favoritesOnly: filter.favoritesOnly,
            minRating: filter.minRating.flatMap { $0 > 0 ? $0 : nil },
            libraryIDs: libraryIDs,
            hidesPosts: hidesPosts,
            hiddenUploaderKeys: hiddenUploaderKeys
        )
    }

    var matchesNothing: Bool { anyTagIDs?.isEmpty == true || (minRating ?? 0) > 5 || libraryIDs?.isEmpty == true }
}

/// A feed query under construction: SQL with `$n` placeholders and their bindings in step.
struct PostgresFeedSQL {
    var sql = ""
    var bindings = PostgresBindings()
    private var count = 0

    /// Binds `value` and returns its placeholder.
    mutating func bind<Value: PostgresNonThrowingEncodable>(_ value: Value) -> String {
        bindings.append(value)
        count += 1
        return "$\(count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: bindings) }

    /// ` WHERE …`: a ready post the filter keeps and the viewer did not hide. The literal
    /// `status = 'ready'` is what lets the planner use the partial indexes.
    mutating func appendConditions(userID: Int64, filter: PostgresFeedFilter) {
        sql += " WHERE p.status = 'ready'"
        if filter.hidesPosts {
            sql += " AND NOT EXISTS (SELECT 1 FROM hidden_posts h WHERE h.user_id = \(bind(userID)) AND h.post_id = p.id)"
        }
        if !filter.hiddenUploaderKeys.isEmpty {
            // coalesce: a post with no uploader at all is never hidden.
            sql += " AND coalesce(p.uploader_key, '') <> ALL(\(bind(filter.hiddenUploaderKeys)))"
        }
        if let ids = filter.anyTagIDs {
            sql += " AND EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\(bind(ids))))"
        }
        if !filter.excludeTagIDs.isEmpty {
            sql += " AND NOT EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\(bind(filter.excludeTagIDs))))"
        }
        if let ids = filter.libraryIDs {
            sql += " AND p.library_id = ANY(\(bind(ids)))"
        }
        if let kind = filter.kind {
            sql += " AND p.kind = \(bind(kind.rawValue))"
        }
        if filter.favoritesOnly {
            sql += " AND EXISTS (SELECT 1 FROM post_user_state f WHERE f.user_id = \(bind(userID)) AND f.post_id = p.id AND f.favorited_at IS NOT NULL)"
        }
        if let minRating = filter.minRating {
            sql += " AND EXISTS (SELECT 1 FROM post_user_state r WHERE r.user_id = \(bind(userID)) AND r.post_id = p.id AND r.rating >= \(bind(minRating)))"
        }
    }

    /// One phase's slice of an epoch after (`lastKey`, `lastID`), in walking order: ascending
    /// epochs walk keys ≥ start (phase 0) then keys < start (phase 1); descending ones walk
    /// keys < start downwards, then keys ≥ start downwards.
    static func page(
        userID: Int64, filter: PostgresFeedFilter, order: FeedShuffle.EpochOrder, phase: Int, after: (key: Int64, id: Int64)?, limit: Int
    ) -> PostgresQuery {
        let key = "p.shuffle\(order.column)"
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id, p.revision, \(key) AS feed_key, s.favorited_at, s.rating, s.position, s.seen_at
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id
            """
        query.appendConditions(userID: userID, filter: filter)
        let upperPart = (phase == 0) != order.descending
        query.sql += upperPart ? " AND \(key) >= \(query.bind(order.start))" : " AND \(key) < \(query.bind(order.start))"
        if let after {
            let bound = "(\(query.bind(after.key)), \(query.bind(after.id)))"
            query.sql += order.descending ? " AND (\(key), p.id) < \(bound)" : " AND (\(key), p.id) > \(bound)"
        }
        let direction = order.descending ? "DESC" : "ASC"
        query.sql += " ORDER BY \(key) \(direction), p.id \(direction) LIMIT \(query.bind(limit))"
        return query.query
    }
}

/// One row of a page query: the post's id and revision, the epoch's key, the viewer's state.
struct PostgresFeedRow: Sendable {
    let id: Int64
    let revision: Int64
    let feedKey: Int64
    let viewer: ViewerState

    /// The first seven columns of `row` (a catalog row has its sort keys after them).
    init(_ row: PostgresRow) throws {
        let cells = row.makeRandomAccess()
        let id = try cells[0].decode(Int64.self)
        let revision = try cells[1].decode(Int64.self)
        let feedKey = try cells[2].decode(Int64.self)
        let favoritedAt = try cells[3].decode(Double?.self)
        let rating = try cells[4].decode(Int32?.self)
        let position = try cells[5].decode(Double?.self)
        let seenAt = try cells[6].decode(Double?.self)
        self.id = id
        self.revision = revision
        self.feedKey = feedKey
        let untouched = favoritedAt == nil && rating == nil && position == nil && seenAt == nil
        viewer = untouched ? .none : PostgresStore.viewerState(favoritedAt: favoritedAt, rating: rating, position: position, seenAt: seenAt)
    }
}

extension PostgresStore {
    /// PostgreSQL's plan for the page query `feedPage` would run first at `position`, one line
    /// per plan node (`EXPLAIN`); for the tests that pin the index use.
    func feedQueryPlan(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> [String] {
        try await read { connection in
            let resolved = try await PostgresFeedFilter.resolve(connection, filter, userID: userID, logger: logger)
            let after = position.lastKey.flatMap { key in position.lastID.map { (key: key, id: $0) } }
            let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
            var query = PostgresFeedSQL.page(
                userID: userID, filter: resolved, order: order, phase: position.phase, after: after, limit: limit + 1
            )
            query.sql = "EXPLAIN " + query.sql
            return try await connection.query(query, logger: logger).collect().map { try $0.decode(String.self) }
        }
    }
}
