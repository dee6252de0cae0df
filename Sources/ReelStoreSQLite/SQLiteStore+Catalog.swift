import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

/// The catalog's rows in SQLite (see `CatalogBackend`): a `CatalogListing` rendered by
/// `CatalogSQL`, read in one transaction with its filter resolved.
extension SQLiteStore: CatalogBackend {
    public func catalogRows(_ listing: CatalogListing, userID: Int64, after: CatalogPosition?, limit: Int) async throws -> [(row: FeedRow, keys: [CatalogKey])]? {
        try await read { db in
            let filter = try ResolvedCatalogFilter.resolve(db, listing.filter, userID: userID)
            if filter.matchesNothing { return nil }
            let statement = CatalogSQL(listing: listing, filter: filter)
            let (sql, arguments) = try statement.page(userID: userID, after: after, limit: limit)
            var rows: [(row: FeedRow, keys: [CatalogKey])] = []
            // Not a cached statement: filters give queries too many shapes to keep one of each.
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try cursor.next() {
                let keys = try listing.keys.indices.map { try CatalogKey(row[CatalogSQL.keyColumnOffset + $0] as DatabaseValue) }
                rows.append((FeedRow(row), keys))
            }
            return rows
        }
    }

    public func tagExists(id: Int64) async throws -> Bool {
        try await read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tags WHERE id = ?)", arguments: [id]) == true }
    }

    public func collectionExists(id: Int64) async throws -> Bool {
        try await read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM collections WHERE id = ?)", arguments: [id]) == true }
    }

    public func popularTags(limit: Int) async throws -> [TagCount] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.id, v.name, COUNT(*) AS uses
                    FROM post_tag_ids l JOIN tags v ON v.id = l.tag_id JOIN posts p ON p.id = l.post_id
                    WHERE p.status = 'ready'
                    GROUP BY v.id ORDER BY uses DESC, v.name, v.id LIMIT ?
                    """,
                arguments: [max(0, limit)]
            ).map { TagCount(id: $0[0], name: $0[1], count: $0[2]) }
        }
    }

    public func tagName(id: Int64) async throws -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT name FROM tags WHERE id = ?", arguments: [id]) }
    }

    /// SQLite's plan for a browse page, one line per step: the tests pin which index each order uses.
    func browseQueryPlan(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> [String] {
        try await read { db in
            let filter = try ResolvedCatalogFilter.resolve(db, query.filter, userID: userID)
            let (sql, arguments) = try CatalogSQL(listing: CatalogListing.browse(query), filter: filter).page(userID: userID, after: after, limit: limit + 1)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }
}
