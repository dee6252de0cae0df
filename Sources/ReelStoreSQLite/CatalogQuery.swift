import GRDB
import ReelModels
import ReelStore

/// A catalog filter with tag names turned into ids, ready to become SQL.
struct ResolvedCatalogFilter {
    var filter: CatalogFilter
    /// Nil: no tag-name constraint. Empty: only unknown tags were named, so nothing matches.
    var anyTagIDs: [Int64]?
    var excludeTagIDs: [Int64]
    /// The libraries the viewer may list here; nil: every library (no condition at all).
    var libraryIDs: [Int64]?

    /// `StoreError.notFound` when the filter names a library the viewer is not granted.
    static func resolve(_ db: Database, _ filter: CatalogFilter, userID: Int64) throws -> ResolvedCatalogFilter {
        let wanted = filter.tags.filter { !Vocabulary.isBlank($0) }
        let libraryIDs = try SQLiteStore.scope(db, userID: userID, requested: filter.library).libraryIDs
        return ResolvedCatalogFilter(
            filter: filter,
            anyTagIDs: wanted.isEmpty ? nil : try Vocabulary.tags.existingIDs(db, names: wanted),
            excludeTagIDs: try Vocabulary.tags.existingIDs(db, names: filter.excludeTags),
            libraryIDs: libraryIDs
        )
    }

    var matchesNothing: Bool { anyTagIDs?.isEmpty == true || (filter.minRating ?? 0) > 5 || libraryIDs?.isEmpty == true }
}

/// One catalog listing (a browse order or a shelf) as SQL. Every catalog page is built here, so
/// anything that narrows what a viewer may list (a scope, a permission) is added in one spot:
/// `page(userID:after:limit:)`.
///
/// Rows come from `posts` (or from `source`, a subquery of post ids with columns the keys may
/// use, as `m`), with the viewer's state LEFT JOINed as `s`, ready posts only, and are ordered
/// by `keys` then `p.id`, all in one direction. A page starts after a keyset position: the
/// row value `(keys…, p.id)` compared with the last row's, so the matching index is entered
/// with a seek at any depth.
struct CatalogListing {
    var source: (sql: String, arguments: StatementArguments)?
    var filter: ResolvedCatalogFilter
    /// Further conditions on `p`, `m` (and `s`), ANDed.
    var conditions: [(sql: String, arguments: StatementArguments)] = []
    /// SQL expressions that are never NULL (so row-value comparisons are total).
    var keys: [String]
    var descending: Bool
    /// Which index the walk follows: `INDEXED BY` the partial index over ready posts that holds
    /// `keys` then `id`, or `NOT INDEXED` (the table itself, in id order) for a listing ordered by
    /// id alone. Named, because without statistics SQLite prefers the `(status, date_added)` index
    /// and sorts every ready post for each page.
    var index: String?

    /// The selected columns: `FeedQuery.Column`'s (so `FeedRow` reads them), then the keys.
    static let keyColumnOffset = 7

    func page(userID: Int64, after: CatalogPosition?, limit: Int) throws -> (sql: String, arguments: StatementArguments) {
        var arguments: StatementArguments = []
        let keyColumns = keys.enumerated().map { ", \($1) AS catalog_key\($0)" }.joined()
        var sql = """
            SELECT p.id, p.revision, 0 AS feed_key,
                   s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
                   s.position AS viewer_position, s.seen_at AS viewer_seen_at\(keyColumns)
            """
        if let source {
            sql += " FROM \(source.sql) m CROSS JOIN posts p ON p.id = m.post_id"
            arguments += source.arguments
        } else {
            sql += " FROM posts p" + (index.map { $0 == "NOT INDEXED" ? " NOT INDEXED" : " INDEXED BY \($0)" } ?? "")
        }
        sql += " LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id"
        arguments += [userID]
        // The literal `status = 'ready'` is what lets SQLite use the partial indexes.
        sql += " WHERE p.status = 'ready'"
        for condition in Self.conditions(userID: userID, filter) + conditions {
            sql += " AND " + condition.sql
            arguments += condition.arguments
        }
        let direction = descending ? "DESC" : "ASC"
        if let after {
            guard after.keys.count == keys.count else { throw StoreError.invalid("the position belongs to another order") }
            let columns = (keys + ["p.id"]).joined(separator: ", ")
            sql += " AND (\(columns)) \(descending ? "<" : ">") (\(SQLiteStore.placeholders(keys.count + 1)))"
            arguments += StatementArguments(after.keys.map(\.databaseValue) + [after.id.databaseValue])
        }
        sql += " ORDER BY " + (keys + ["p.id"]).map { "\($0) \(direction)" }.joined(separator: ", ") + " LIMIT ?"
        arguments += [limit]
        return (sql, arguments)
    }

    /// The filter as conditions on `p`. Per-user ones are EXISTS subqueries, not conditions on
    /// `s`, so SQLite never turns the LEFT JOIN into an inner join and reorders it.
    static func conditions(userID: Int64, _ resolved: ResolvedCatalogFilter) -> [(sql: String, arguments: StatementArguments)] {
        let filter = resolved.filter
        var result: [(sql: String, arguments: StatementArguments)] = []
        if let ids = resolved.libraryIDs {
            result.append(("p.library_id IN (\(SQLiteStore.placeholders(ids.count)))", StatementArguments(ids)))
        }
        for ids in [resolved.anyTagIDs, filter.tagIDs.isEmpty ? nil : filter.tagIDs].compactMap({ $0 }) {
            result.append(("EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id IN (\(SQLiteStore.placeholders(ids.count))))",
                           StatementArguments(ids)))
        }
        if !resolved.excludeTagIDs.isEmpty {
            let ids = resolved.excludeTagIDs
            result.append(("NOT EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id IN (\(SQLiteStore.placeholders(ids.count))))",
                           StatementArguments(ids)))
        }
        if !filter.uploaders.isEmpty {
            // SQLite's own NOCASE (ASCII case), not a Swift function: this is checked on every row
            // an order's index walk meets, and a callback per row made a rare uploader cost a second
            // at 100k posts.
            let list = SQLiteStore.placeholders(filter.uploaders.count)
            result.append(("(p.uploader COLLATE NOCASE IN (\(list)) OR p.username COLLATE NOCASE IN (\(list)))",
                           StatementArguments(filter.uploaders) + StatementArguments(filter.uploaders)))
        }
        if !filter.kinds.isEmpty {
            result.append(("p.kind IN (\(SQLiteStore.placeholders(filter.kinds.count)))", StatementArguments(filter.kinds.map(\.rawValue))))
        }
        if let minimum = filter.minDuration { result.append(("coalesce(p.duration, 0) >= ?", [minimum])) }
        if let maximum = filter.maxDuration { result.append(("coalesce(p.duration, 0) <= ?", [maximum])) }
        if filter.favoritesOnly {
            result.append(("EXISTS (SELECT 1 FROM post_user_state f WHERE f.user_id = ? AND f.post_id = p.id AND f.favorited_at IS NOT NULL)", [userID]))
        }
        if let minimum = filter.minRating, minimum > 0 {
            result.append(("EXISTS (SELECT 1 FROM post_user_state r WHERE r.user_id = ? AND r.post_id = p.id AND r.rating >= ?)", [userID, minimum]))
        }
        if let seen = filter.seen {
            let exists = "EXISTS (SELECT 1 FROM post_user_state v WHERE v.user_id = ? AND v.post_id = p.id AND v.seen_at IS NOT NULL)"
            result.append((seen ? exists : "NOT " + exists, [userID]))
        }
        return result
    }

    // MARK: - The listings

    static func browse(_ query: BrowseQuery, filter: ResolvedCatalogFilter) -> CatalogListing {
        let (key, index): (String, String?) = switch query.sort {
        case .title: ("p.title_key", "posts_ready_by_title")
        case .newest: ("p.date_added", "posts_ready_by_added")
        case .posted: ("coalesce(p.date_posted, '')", "posts_ready_by_posted")
        case .duration: ("coalesce(p.duration, 0)", "posts_ready_by_duration")
        // Per viewer: no index can hold it, so the filtered posts are sorted.
        case .rating: ("coalesce(s.rating, 0)", nil)
        }
        return CatalogListing(filter: filter, keys: [key], descending: query.descending, index: index)
    }

    static func shelf(_ shelf: Shelf, userID: Int64, resume: ResumeRule, filter: ResolvedCatalogFilter) -> CatalogListing {
        switch shelf {
        case .continueWatching:
            return CatalogListing(
                source: ("(SELECT post_id, position, coalesce(position_at, 0) AS saved_at FROM post_user_state WHERE user_id = ? AND position IS NOT NULL)", [userID]),
                filter: filter,
                conditions: [("p.duration >= ? AND m.position >= p.duration * ? AND m.position <= p.duration * ?",
                              [resume.minDuration, resume.minFraction, resume.maxFraction])],
                keys: ["m.saved_at"], descending: true
            )
        case .new, .unseen, .tag:
            return CatalogListing(filter: filter, keys: ["p.date_added"], descending: true, index: "posts_ready_by_added")
        case .topRated:
            return CatalogListing(
                source: ("(SELECT post_id, rating FROM post_user_state WHERE user_id = ? AND rating >= 1)", [userID]),
                filter: filter, keys: ["m.rating", "p.date_added"], descending: true
            )
        case .mostFavorited:
            return CatalogListing(
                source: ("(SELECT post_id, COUNT(*) AS favorites FROM post_user_state WHERE favorited_at IS NOT NULL GROUP BY post_id)", []),
                filter: filter, keys: ["m.favorites"], descending: true
            )
        case .collection(let id):
            return CatalogListing(
                source: ("(SELECT post_id, position FROM collection_items WHERE collection_id = ?)", [id]),
                filter: filter, keys: ["m.position"], descending: false
            )
        }
    }

    /// The shelf's own filter (Unseen: not seen; a tag shelf: that tag).
    static func shelfFilter(_ shelf: Shelf) -> CatalogFilter {
        switch shelf {
        case .unseen: CatalogFilter(seen: false)
        case .tag(let id): CatalogFilter(tagIDs: [id])
        default: CatalogFilter()
        }
    }
}

extension CatalogKey {
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        }
    }

    init(_ value: DatabaseValue) throws {
        switch value.storage {
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob, .null: throw StoreError.corrupt("a catalog sort key is \(value)")
        }
    }
}
