import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

extension ResolvedCatalogFilter {
    /// `filter` for `userID` on `connection`. `StoreError.notFound` when the filter names a
    /// library the viewer is not granted.
    static func resolve(_ connection: PostgresConnection, _ filter: CatalogFilter, userID: Int64, logger: Logger) async throws -> ResolvedCatalogFilter {
        var tagIDs: [Int64]?
        if let wanted = ResolvedCatalogFilter.wantedTags(filter) {
            tagIDs = try await Vocabulary.tags.existingIDs(connection, names: wanted, logger: logger)
        }
        return ResolvedCatalogFilter(
            filter, tagIDs: tagIDs,
            excludeTagIDs: try await Vocabulary.tags.existingIDs(connection, names: filter.excludeTags, logger: logger),
            scope: try await PostgresStore.scope(connection, userID: userID, requested: filter.library, logger: logger)
        )
    }
}

/// A `CatalogListing` as PostgreSQL SQL: rows from `posts` (or from the listing's source, a
/// subquery of post ids as `m`) with the viewer's state as `s`, ready posts only, ordered by the
/// keys then `p.id` in one direction, from a keyset position. The partial indexes over ready
/// posts for each order exist as in SQLite; PostgreSQL's planner picks them without hints.
struct PostgresCatalogSQL {
    let listing: CatalogListing
    let filter: ResolvedCatalogFilter

    /// The selected columns: the narrow row's seven, then the keys.
    static let keyColumnOffset = 7

    var keys: [String] { listing.keys.map(\.expression) }

    func page(userID: Int64, after: CatalogPosition?, limit: Int) throws -> PostgresQuery {
        var query = PostgresFeedSQL()
        let keys = keys
        let descending = listing.descending
        let keyColumns = keys.map { ", \($0)" }.joined()
        var sql = "SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at\(keyColumns)"
        if let source = Self.source(listing.source, &query) {
            sql += " FROM \(source) m JOIN posts p ON p.id = m.post_id"
        } else {
            sql += " FROM posts p"
        }
        sql += " LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id"
        // The literal `status = 'ready'` is what lets the planner use the partial indexes.
        sql += " WHERE p.status = 'ready'"
        for condition in Self.conditions(userID: userID, filter) {
            sql += " AND " + condition(&query)
        }
        for condition in listing.conditions {
            sql += " AND " + Self.condition(condition, &query)
        }
        let direction = descending ? "DESC" : "ASC"
        if let after {
            guard after.keys.count == keys.count else { throw StoreError.invalid("the position belongs to another order") }
            let values = after.keys.map { key -> String in
                switch key {
                case .integer(let value): query.bind(value)
                case .real(let value): query.bind(value)
                case .text(let value): query.bind(value)
                }
            } + [query.bind(after.id)]
            sql += " AND (\((keys + ["p.id"]).joined(separator: ", "))) \(descending ? "<" : ">") (\(values.joined(separator: ", ")))"
        }
        sql += " ORDER BY " + (keys + ["p.id"]).map { "\($0) \(direction)" }.joined(separator: ", ") + " LIMIT \(query.bind(limit))"
        query.sql = sql
        return query.query
    }

    /// The filter as conditions on `p`; per-user ones are EXISTS subqueries, as in SQLite.
    static func conditions(userID: Int64, _ resolved: ResolvedCatalogFilter) -> [(inout PostgresFeedSQL) -> String] {
        let filter = resolved.filter
        var result: [(inout PostgresFeedSQL) -> String] = []
        if let ids = resolved.libraryIDs { result.append { "p.library_id = ANY(\($0.bind(ids)))" } }
        for ids in resolved.requiredTagSets {
            result.append { "EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\($0.bind(ids))))" }
        }
        if !resolved.excludeTagIDs.isEmpty {
            let ids = resolved.excludeTagIDs
            result.append { "NOT EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\($0.bind(ids))))" }
        }
        if !filter.uploaders.isEmpty {
            // ASCII case only, as SQLite's NOCASE: the same names match on both stores.
            let keys = filter.uploaders.map(TagName.key)
            result.append { query in
                let list = query.bind(keys)
                return "(\(Self.asciiLower("p.uploader")) = ANY(\(list)) OR \(Self.asciiLower("p.username")) = ANY(\(list)))"
            }
        }
        if !filter.kinds.isEmpty {
            let kinds = filter.kinds.map(\.rawValue)
            result.append { "p.kind = ANY(\($0.bind(kinds)))" }
        }
        if let minimum = filter.minDuration { result.append { "coalesce(p.duration, 0) >= \($0.bind(minimum))" } }
        if let maximum = filter.maxDuration { result.append { "coalesce(p.duration, 0) <= \($0.bind(maximum))" } }
        if filter.favoritesOnly {
            result.append { "EXISTS (SELECT 1 FROM post_user_state f WHERE f.user_id = \($0.bind(userID)) AND f.post_id = p.id AND f.favorited_at IS NOT NULL)" }
        }
        if let minimum = resolved.minRating {
            result.append { "EXISTS (SELECT 1 FROM post_user_state r WHERE r.user_id = \($0.bind(userID)) AND r.post_id = p.id AND r.rating >= \($0.bind(minimum)))" }
        }
        if let seen = filter.seen {
            result.append { query in
                let exists = "EXISTS (SELECT 1 FROM post_user_state v WHERE v.user_id = \(query.bind(userID)) AND v.post_id = p.id AND v.seen_at IS NOT NULL)"
                return seen ? exists : "NOT " + exists
            }
        }
        return result
    }

    /// `column` with only A–Z lowered (SQLite's NOCASE), whatever the database's locale.
    static func asciiLower(_ column: String) -> String {
        "translate(\(column), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }

    static func source(_ source: CatalogListing.Source, _ query: inout PostgresFeedSQL) -> String? {
        switch source {
        case .posts: nil
        case .ratedBy(let userID): "(SELECT post_id, rating FROM post_user_state WHERE user_id = \(query.bind(userID)) AND rating >= 1)"
        case .savedPositions(let userID):
            "(SELECT post_id, position, coalesce(position_at, 0) AS saved_at FROM post_user_state WHERE user_id = \(query.bind(userID)) AND position IS NOT NULL)"
        case .favoriteCounts: "(SELECT post_id, count(*) AS favorites FROM post_user_state WHERE favorited_at IS NOT NULL GROUP BY post_id)"
        case .collection(let id): "(SELECT post_id, position FROM collection_items WHERE collection_id = \(query.bind(id)))"
        }
    }

    static func condition(_ condition: CatalogListing.Condition, _ query: inout PostgresFeedSQL) -> String {
        switch condition {
        case .notRatedBy(let userID):
            "NOT EXISTS (SELECT 1 FROM post_user_state u WHERE u.user_id = \(query.bind(userID)) AND u.post_id = p.id AND u.rating >= 1)"
        case .resumable(let resume):
            "p.duration >= \(query.bind(resume.minDuration)) AND m.position >= p.duration * \(query.bind(resume.minFraction)) AND m.position <= p.duration * \(query.bind(resume.maxFraction))"
        }
    }
}
