import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

extension ResolvedCatalogFilter {
    /// `filter` for `userID` inside a read. `StoreError.notFound` when the filter names a
    /// library the viewer is not granted.
    static func resolve(_ db: Database, _ filter: CatalogFilter, userID: Int64) throws -> ResolvedCatalogFilter {
        ResolvedCatalogFilter(
            filter,
            tagIDs: try ResolvedCatalogFilter.wantedTags(filter).map { try Vocabulary.tags.existingIDs(db, names: $0) },
            excludeTagIDs: try Vocabulary.tags.existingIDs(db, names: filter.excludeTags),
            scope: try SQLiteStore.scope(db, userID: userID, requested: filter.library)
        )
    }
}

/// A `CatalogListing` as SQLite SQL: rows from `posts` (or from the listing's source, a
/// subquery of post ids as `m`), with the viewer's state LEFT JOINed as `s`, ready posts only,
/// ordered by the keys then `p.id`, from a keyset position.
struct CatalogSQL {
    let listing: CatalogListing
    let filter: ResolvedCatalogFilter

    /// The selected columns: `FeedQuery.Column`'s (so `FeedRow` reads them), then the keys.
    static let keyColumnOffset = 7

    var keys: [String] { listing.keys.map(\.expression) }

    func page(userID: Int64, after: CatalogPosition?, limit: Int) throws -> (sql: String, arguments: StatementArguments) {
        var arguments: StatementArguments = []
        let keys = keys
        let keyColumns = keys.enumerated().map { ", \($1) AS catalog_key\($0)" }.joined()
        var sql = FeedQuery.narrowSelect + keyColumns
        if let (source, sourceArguments) = Self.source(listing.source) {
            sql += " FROM \(source) m CROSS JOIN posts p ON p.id = m.post_id"
            arguments += sourceArguments
        } else {
            sql += " FROM posts p" + (Self.index(listing.keys).map { $0 == "NOT INDEXED" ? " NOT INDEXED" : " INDEXED BY \($0)" } ?? "")
        }
        sql += " LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id"
        arguments += [userID]
        // The literal `status = 'ready'` is what lets SQLite use the partial indexes.
        sql += " WHERE p.status = 'ready'"
        for condition in Self.conditions(userID: userID, filter) + listing.conditions.map(Self.condition) {
            sql += " AND " + condition.sql
            arguments += condition.arguments
        }
        let direction = listing.descending ? "DESC" : "ASC"
        if let after {
            guard after.keys.count == keys.count else { throw StoreError.invalid("the position belongs to another order") }
            let columns = (keys + ["p.id"]).joined(separator: ", ")
            sql += " AND (\(columns)) \(listing.descending ? "<" : ">") (\(SQLiteStore.placeholders(keys.count + 1)))"
            arguments += StatementArguments(after.keys.map(\.databaseValue) + [after.id.databaseValue])
        }
        sql += " ORDER BY " + (keys + ["p.id"]).map { "\($0) \(direction)" }.joined(separator: ", ") + " LIMIT ?"
        arguments += [limit]
        return (sql, arguments)
    }

    /// Which index a walk of `posts` follows: `INDEXED BY` the partial index over ready posts that
    /// holds the key then `id`, or `NOT INDEXED` (the table itself, in id order) for a listing
    /// ordered by id alone. Named, because without statistics SQLite prefers the
    /// `(status, date_added)` index and sorts every ready post for each page. Nil: the viewer's
    /// rating, which no index holds (the filtered posts are sorted).
    static func index(_ keys: [CatalogListing.Key]) -> String? {
        switch keys.first {
        case nil: "NOT INDEXED"
        case .title?: "posts_ready_by_title"
        case .dateAdded?: "posts_ready_by_added"
        case .datePosted?: "posts_ready_by_posted"
        case .duration?: "posts_ready_by_duration"
        default: nil
        }
    }

    static func source(_ source: CatalogListing.Source) -> (String, StatementArguments)? {
        switch source {
        case .posts: nil
        case .ratedBy(let userID): ("(SELECT post_id, rating FROM post_user_state WHERE user_id = ? AND rating >= 1)", [userID])
        case .savedPositions(let userID):
            ("(SELECT post_id, position, coalesce(position_at, 0) AS saved_at FROM post_user_state WHERE user_id = ? AND position IS NOT NULL)", [userID])
        case .favoriteCounts:
            ("(SELECT post_id, COUNT(*) AS favorites FROM post_user_state WHERE favorited_at IS NOT NULL GROUP BY post_id)", [])
        case .collection(let id): ("(SELECT post_id, position FROM collection_items WHERE collection_id = ?)", [id])
        }
    }

    static func condition(_ condition: CatalogListing.Condition) -> (sql: String, arguments: StatementArguments) {
        switch condition {
        case .notRatedBy(let userID):
            ("NOT EXISTS (SELECT 1 FROM post_user_state u WHERE u.user_id = ? AND u.post_id = p.id AND u.rating >= 1)", [userID])
        case .resumable(let resume):
            ("p.duration >= ? AND m.position >= p.duration * ? AND m.position <= p.duration * ?",
             [resume.minDuration, resume.minFraction, resume.maxFraction])
        }
    }

    /// The filter as conditions on `p`. Per-user ones are EXISTS subqueries, not conditions on
    /// `s`, so SQLite never turns the LEFT JOIN into an inner join and reorders it.
    static func conditions(userID: Int64, _ resolved: ResolvedCatalogFilter) -> [(sql: String, arguments: StatementArguments)] {
        let filter = resolved.filter
        var result: [(sql: String, arguments: StatementArguments)] = []
        if let ids = resolved.libraryIDs {
            result.append(("p.library_id IN (\(SQLiteStore.placeholders(ids.count)))", StatementArguments(ids)))
        }
        for ids in resolved.requiredTagSets {
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
        if let minimum = resolved.minRating {
            result.append(("EXISTS (SELECT 1 FROM post_user_state r WHERE r.user_id = ? AND r.post_id = p.id AND r.rating >= ?)", [userID, minimum]))
        }
        if let seen = filter.seen {
            let exists = "EXISTS (SELECT 1 FROM post_user_state v WHERE v.user_id = ? AND v.post_id = p.id AND v.seen_at IS NOT NULL)"
            result.append((seen ? exists : "NOT " + exists, [userID]))
        }
        return result
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
