import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

extension ResolvedFeedFilter {
    /// `filter` for `userID` inside a read. `StoreError.notFound` when the filter names a
    /// library the viewer is not granted.
    static func resolve(_ db: Database, _ filter: FeedFilter, userID: Int64) throws -> ResolvedFeedFilter {
        let hidesPosts = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM hidden_posts WHERE user_id = ?)"), arguments: [userID]
        ) ?? false
        let hiddenUploaderKeys = try String.fetchAll(
            db.cachedStatement(sql: "SELECT uploader_key FROM hidden_uploaders WHERE user_id = ?"), arguments: [userID]
        )
        return ResolvedFeedFilter(
            filter,
            tagIDs: try ResolvedFeedFilter.wantedTags(filter).map { try Vocabulary.tags.existingIDs(db, names: $0) },
            excludeTagIDs: try Vocabulary.tags.existingIDs(db, names: filter.excludeTags),
            scope: try SQLiteStore.scope(db, userID: userID, requested: filter.library),
            hidesPosts: hidesPosts, hiddenUploaderKeys: hiddenUploaderKeys
        )
    }
}

/// Which set of rows a feed query starts from. The shuffle index finds a page in O(log n) plus
/// the rows the filter rejects on the way; when a filter keeps only a few posts, walking the
/// index would reject almost everything, so the query starts from those few instead and sorts
/// them. `FeedQuery.chooseDriver` picks whichever touches fewer rows.
enum FeedDriver: Sendable, Equatable {
    case shuffleIndex
    case tags
    case favorites
    case rated
    case libraries
}

enum FeedQuery {
    /// The selected columns, in `Column` order: the post's id and revision, the epoch's key and
    /// the viewer's state. The rest of each post comes from `FeedPostCache`.
    static func select(order: FeedShuffle.EpochOrder) -> String {
        """
        SELECT p.id, p.revision, p.\(FeedShuffleColumns.name(order.column)) AS feed_key,
               s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
               s.position AS viewer_position, s.seen_at AS viewer_seen_at
        """
    }

    /// `select`'s columns for a listing without a shuffle key (0 in its place).
    static let narrowSelect = """
        SELECT p.id, p.revision, 0 AS feed_key,
               s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
               s.position AS viewer_position, s.seen_at AS viewer_seen_at
        """

    /// Where `select`'s columns are in a page's rows.
    enum Column {
        static let id = 0
        static let revision = 1
        static let feedKey = 2
        static let viewer = PostColumns.ViewerColumns(favoritedAt: 3, rating: 4, position: 5, seenAt: 6)
    }

    /// FROM … WHERE … for ready posts matching `filter`, starting from `driver`'s rows, with the
    /// viewer's state LEFT JOINed. The per-user filters are EXISTS subqueries rather than
    /// conditions on the joined state, so SQLite can never turn the LEFT JOIN into an inner join
    /// and reorder it ahead of the chosen driver.
    /// `walkIndex`: the index the `.shuffleIndex` driver walks (default: the column's shuffle
    /// index; Latest walks `posts_ready_by_added`).
    static func body(
        userID: Int64, filter: ResolvedFeedFilter, driver: FeedDriver, column: Int, walkIndex: String? = nil
    ) -> (String, StatementArguments) {
        var sql: String
        var arguments: StatementArguments = []
        switch driver {
        case .shuffleIndex:
            sql = "FROM posts p INDEXED BY \(walkIndex ?? FeedShuffleColumns.index(column))"
        case .tags:
            let ids = filter.anyTagIDs ?? []
            sql = "FROM (SELECT DISTINCT post_id FROM post_tag_ids WHERE tag_id IN (\(SQLiteStore.placeholders(ids.count)))) m"
                + " CROSS JOIN posts p ON p.id = m.post_id"
            arguments += StatementArguments(ids)
        case .favorites:
            sql = "FROM (SELECT post_id FROM post_user_state WHERE user_id = ? AND favorited_at IS NOT NULL) m"
                + " CROSS JOIN posts p ON p.id = m.post_id"
            arguments += [userID]
        case .rated:
            sql = "FROM (SELECT post_id FROM post_user_state WHERE user_id = ? AND rating >= ?) m"
                + " CROSS JOIN posts p ON p.id = m.post_id"
            arguments += [userID, filter.minRating ?? 0]
        case .libraries:
            let ids = filter.libraryIDs ?? []
            sql = "FROM (SELECT id AS post_id FROM posts INDEXED BY posts_ready_by_library"
                + " WHERE library_id IN (\(SQLiteStore.placeholders(ids.count))) AND status = 'ready') m"
                + " CROSS JOIN posts p ON p.id = m.post_id"
            arguments += StatementArguments(ids)
        }
        sql += " LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id"
        arguments += [userID]
        let (conditions, conditionArguments) = Self.conditions(userID: userID, filter: filter)
        return (sql + conditions, arguments + conditionArguments)
    }

    /// ` WHERE …`: the conditions on `p` (a ready post the filter keeps and the viewer did not
    /// hide), for any query that names the post `p`.
    static func conditions(userID: Int64, filter: ResolvedFeedFilter) -> (String, StatementArguments) {
        var arguments: StatementArguments = []
        // The literal `status = 'ready'` is what lets SQLite use the partial shuffle indexes.
        var sql = " WHERE p.status = 'ready'"
        if filter.hidesPosts {
            sql += " AND NOT EXISTS (SELECT 1 FROM hidden_posts h WHERE h.user_id = ? AND h.post_id = p.id)"
            arguments += [userID]
        }
        if !filter.hiddenUploaderKeys.isEmpty {
            // coalesce: a post with no uploader at all is never hidden (NULL NOT IN … is NULL).
            sql += " AND coalesce(\(UploaderKeyFunction.name)(p.uploader, p.username), '')"
                + " NOT IN (\(SQLiteStore.placeholders(filter.hiddenUploaderKeys.count)))"
            arguments += StatementArguments(filter.hiddenUploaderKeys)
        }
        if let ids = filter.anyTagIDs {
            sql += " AND EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id IN (\(SQLiteStore.placeholders(ids.count))))"
            arguments += StatementArguments(ids)
        }
        if !filter.excludeTagIDs.isEmpty {
            sql += " AND NOT EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id IN (\(SQLiteStore.placeholders(filter.excludeTagIDs.count))))"
            arguments += StatementArguments(filter.excludeTagIDs)
        }
        if let ids = filter.libraryIDs {
            sql += " AND p.library_id IN (\(SQLiteStore.placeholders(ids.count)))"
            arguments += StatementArguments(ids)
        }
        if let kind = filter.kind {
            sql += " AND p.kind = ?"
            arguments += [kind.rawValue]
        }
        if filter.favoritesOnly {
            sql += " AND EXISTS (SELECT 1 FROM post_user_state f WHERE f.user_id = ? AND f.post_id = p.id AND f.favorited_at IS NOT NULL)"
            arguments += [userID]
        }
        if let minRating = filter.minRating {
            sql += " AND EXISTS (SELECT 1 FROM post_user_state r WHERE r.user_id = ? AND r.post_id = p.id AND r.rating >= ?)"
            arguments += [userID, minRating]
        }
        return (sql, arguments)
    }

    /// One phase's slice of an epoch after (`lastKey`, `lastID`), in walking order.
    ///
    /// Ascending epochs walk keys ≥ start (phase 0) then keys < start (phase 1); descending ones
    /// walk keys < start downwards, then keys ≥ start downwards. The (key, id) row-value bound
    /// is the keyset cursor, so the index seek lands right after the previous page.
    static func page(
        userID: Int64, filter: ResolvedFeedFilter, driver: FeedDriver, order: FeedShuffle.EpochOrder,
        phase: Int, after: FeedKeyset?, limit: Int
    ) -> (String, StatementArguments) {
        let key = "p." + FeedShuffleColumns.name(order.column)
        var (sql, arguments) = body(userID: userID, filter: filter, driver: driver, column: order.column)
        let upperPart = (phase == 0) != order.descending
        sql += upperPart ? " AND \(key) >= ?" : " AND \(key) < ?"
        arguments += [order.start]
        if let after {
            sql += order.descending ? " AND (\(key), p.id) < (?, ?)" : " AND (\(key), p.id) > (?, ?)"
            arguments += [after.key, after.id]
        }
        let direction = order.descending ? "DESC" : "ASC"
        sql = select(order: order) + " " + sql + " ORDER BY \(key) \(direction), p.id \(direction) LIMIT ?"
        arguments += [limit]
        return (sql, arguments)
    }

    /// The cheapest driver: a small candidate set (at most `threshold` rows) beats walking the
    /// index, which finds `limit` matches only after about `limit · n / m` rows when m of n posts
    /// match. With `threshold = √(limit · n)` either choice touches O(√(limit · n)) rows at
    /// worst, and the unfiltered feed always walks the index. Counting stops at the threshold,
    /// so choosing is bounded too. `threshold` is asked only when there is something to choose
    /// (the unfiltered feed, the common case, spends no query on it).
    static func chooseDriver(_ db: Database, userID: Int64, filter: ResolvedFeedFilter, threshold: () throws -> Int) throws -> FeedDriver {
        var candidates: [(FeedDriver, String, StatementArguments)] = []
        if let ids = filter.anyTagIDs {
            candidates.append((.tags, "SELECT 1 FROM post_tag_ids WHERE tag_id IN (\(SQLiteStore.placeholders(ids.count)))", StatementArguments(ids)))
        }
        if filter.favoritesOnly {
            candidates.append((.favorites, "SELECT 1 FROM post_user_state WHERE user_id = ? AND favorited_at IS NOT NULL", [userID]))
        }
        if let minRating = filter.minRating {
            candidates.append((.rated, "SELECT 1 FROM post_user_state WHERE user_id = ? AND rating >= ?", [userID, minRating]))
        }
        if let ids = filter.libraryIDs {
            candidates.append((.libraries, "SELECT 1 FROM posts INDEXED BY posts_ready_by_library WHERE library_id IN (\(SQLiteStore.placeholders(ids.count))) AND status = 'ready'", StatementArguments(ids)))
        }
        if candidates.isEmpty { return .shuffleIndex }
        let threshold = try threshold()
        var best: (driver: FeedDriver, count: Int)?
        for (driver, sql, arguments) in candidates {
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql) LIMIT ?)", arguments: arguments + [threshold + 1]) ?? 0
            if count <= threshold, count < best?.count ?? Int.max {
                best = (driver, count)
            }
        }
        return best?.driver ?? .shuffleIndex
    }

    /// √(limit · n), n estimated by the highest post id (O(log n); deletions only make it
    /// larger, which errs towards the always-safe index walk).
    static func threshold(_ db: Database, limit: Int) throws -> Int {
        let n = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM posts")) ?? 0
        return max(64, Int((Double(max(1, limit)) * Double(max(1, n))).squareRoot()))
    }
}
