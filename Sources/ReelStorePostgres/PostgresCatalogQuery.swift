import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// A catalog filter with tag names turned into ids (SQLite's `ResolvedCatalogFilter`).
struct PostgresCatalogFilter: Sendable {
    var filter: CatalogFilter
    var anyTagIDs: [Int64]?
    var excludeTagIDs: [Int64]
    var libraryIDs: [Int64]?

    /// `StoreError.notFound` when the filter names a library the viewer is not granted.
    static func resolve(_ connection: PostgresConnection, _ filter: CatalogFilter, userID: Int64, logger: Logger) async throws -> PostgresCatalogFilter {
        let wanted = filter.tags.filter { !PostgresVocabulary.isBlank($0) }
        return PostgresCatalogFilter(
            filter: filter,
            anyTagIDs: wanted.isEmpty ? nil : try await PostgresVocabulary.tags.existingIDs(connection, names: wanted, logger: logger),
            excludeTagIDs: try await PostgresVocabulary.tags.existingIDs(connection, names: filter.excludeTags, logger: logger),
            libraryIDs: try await PostgresStore.scope(connection, userID: userID, requested: filter.library, logger: logger).libraryIDs
        )
    }

    var matchesNothing: Bool { anyTagIDs?.isEmpty == true || (filter.minRating ?? 0) > 5 || libraryIDs?.isEmpty == true }
}

/// One catalog listing (a browse order or a shelf) as SQL (SQLite's `CatalogListing`): rows from
/// `posts` (or from `source`, a subquery of post ids as `m`) with the viewer's state as `s`,
/// ready posts only, ordered by `keys` then `p.id` in one direction, from a keyset position.
/// The partial indexes over ready posts for each order exist as in SQLite; PostgreSQL's
/// planner picks them without hints.
struct PostgresCatalogListing {
    /// SQL of the source subquery, given a binder for its arguments.
    var source: ((inout PostgresFeedSQL) -> String)?
    var filter: PostgresCatalogFilter
    var conditions: [(inout PostgresFeedSQL) -> String] = []
    /// SQL expressions that are never NULL (so row-value comparisons are total).
    var keys: [String]
    var descending: Bool

    func page(userID: Int64, after: CatalogPosition?, limit: Int) throws -> PostgresQuery {
        var query = PostgresFeedSQL()
        let keyColumns = keys.map { ", \($0)" }.joined()
        var sql = "SELECT p.id, p.revision, 0::bigint, s.favorited_at, s.rating, s.position, s.seen_at\(keyColumns)"
        if let source {
            sql += " FROM \(source(&query)) m JOIN posts p ON p.id = m.post_id"
        } else {
            sql += " FROM posts p"
        }
        sql += " LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id"
        // The literal `status = 'ready'` is what lets the planner use the partial indexes.
        sql += " WHERE p.status = 'ready'"
        for condition in Self.conditions(userID: userID, filter) + conditions {
            sql += " AND " + condition(&query)
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
    static func conditions(userID: Int64, _ resolved: PostgresCatalogFilter) -> [(inout PostgresFeedSQL) -> String] {
        let filter = resolved.filter
        var result: [(inout PostgresFeedSQL) -> String] = []
        if let ids = resolved.libraryIDs { result.append { "p.library_id = ANY(\($0.bind(ids)))" } }
        for ids in [resolved.anyTagIDs, filter.tagIDs.isEmpty ? nil : filter.tagIDs].compactMap({ $0 }) {
            result.append { "EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\($0.bind(ids))))" }
        }
        if !resolved.excludeTagIDs.isEmpty {
            let ids = resolved.excludeTagIDs
            result.append { "NOT EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\($0.bind(ids))))" }
        }
        if !filter.uploaders.isEmpty {
            // ASCII case only, as SQLite's NOCASE: the same names match on both stores.
            let keys = filter.uploaders.map(PostgresVocabulary.key)
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
        if let minimum = filter.minRating, minimum > 0 {
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

    // MARK: - The listings

    static func browse(_ query: BrowseQuery, filter: PostgresCatalogFilter) -> PostgresCatalogListing {
        let key = switch query.sort {
        case .title: "p.title_key"
        case .newest: "p.date_added"
        case .posted: "coalesce(p.date_posted, '')"
        case .duration: "coalesce(p.duration, 0)"
        case .rating: "coalesce(s.rating, 0)"
        }
        return PostgresCatalogListing(filter: filter, keys: [key], descending: query.descending)
    }

    static func shelf(_ shelf: Shelf, userID: Int64, resume: ResumeRule, filter: PostgresCatalogFilter) -> PostgresCatalogListing {
        switch shelf {
        case .continueWatching:
            return PostgresCatalogListing(
                source: { "(SELECT post_id, position, coalesce(position_at, 0) AS saved_at FROM post_user_state WHERE user_id = \($0.bind(userID)) AND position IS NOT NULL)" },
                filter: filter,
                conditions: [{ query in
                    "p.duration >= \(query.bind(resume.minDuration)) AND m.position >= p.duration * \(query.bind(resume.minFraction)) AND m.position <= p.duration * \(query.bind(resume.maxFraction))"
                }],
                keys: ["m.saved_at"], descending: true
            )
        case .new, .unseen, .tag:
            return PostgresCatalogListing(filter: filter, keys: ["p.date_added"], descending: true)
        case .topRated:
            return PostgresCatalogListing(
                source: { "(SELECT post_id, rating FROM post_user_state WHERE user_id = \($0.bind(userID)) AND rating >= 1)" },
                filter: filter, keys: ["m.rating", "p.date_added"], descending: true
            )
        case .mostFavorited:
            return PostgresCatalogListing(
                source: { _ in "(SELECT post_id, count(*) AS favorites FROM post_user_state WHERE favorited_at IS NOT NULL GROUP BY post_id)" },
                filter: filter, keys: ["m.favorites"], descending: true
            )
        case .collection(let id):
            return PostgresCatalogListing(
                source: { "(SELECT post_id, position FROM collection_items WHERE collection_id = \($0.bind(id)))" },
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
