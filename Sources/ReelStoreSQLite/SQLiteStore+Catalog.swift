import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    public func browse(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try Self.checkCatalogLimit(limit)
        let posts = feedPosts
        return try await read { db in
            let filter = try ResolvedCatalogFilter.resolve(db, query.filter)
            if filter.matchesNothing { return ([], nil) }
            return try Self.catalogPage(db, posts: posts, listing: CatalogListing.browse(query, filter: filter), userID: userID, after: after, limit: limit)
        }
    }

    public func shelf(_ shelf: Shelf, userID: Int64, resume: ResumeRule, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try Self.checkCatalogLimit(limit)
        let posts = feedPosts
        return try await read { db in
            switch shelf {
            case .tag(let id):
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tags WHERE id = ?)", arguments: [id]) == true else {
                    throw StoreError.notFound("tag \(id)")
                }
            case .collection(let id):
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM collections WHERE id = ?)", arguments: [id]) == true else {
                    throw StoreError.notFound("collection \(id)")
                }
            default: break
            }
            let filter = try ResolvedCatalogFilter.resolve(db, CatalogListing.shelfFilter(shelf))
            let listing = CatalogListing.shelf(shelf, userID: userID, resume: resume, filter: filter)
            return try Self.catalogPage(db, posts: posts, listing: listing, userID: userID, after: after, limit: limit)
        }
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
            let filter = try ResolvedCatalogFilter.resolve(db, query.filter)
            let (sql, arguments) = try CatalogListing.browse(query, filter: filter).page(userID: userID, after: after, limit: limit + 1)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    private static func checkCatalogLimit(_ limit: Int) throws {
        guard (1...maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a catalog page holds 1 to \(maxFeedPage) posts, not \(limit)")
        }
    }

    /// Reads `limit + 1` rows (the extra one tells whether another page follows) and makes the
    /// first `limit` into items through the feed's post cache.
    private static func catalogPage(
        _ db: Database, posts: FeedPostCache, listing: CatalogListing, userID: Int64, after: CatalogPosition?, limit: Int
    ) throws -> (items: [FeedItem], next: CatalogPosition?) {
        let (sql, arguments) = try listing.page(userID: userID, after: after, limit: limit + 1)
        var rows: [FeedRow] = []
        var lastKeys: [CatalogKey] = []
        // Not a cached statement: filters give queries too many shapes to keep one of each.
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            rows.append(FeedRow(row))
            if rows.count == limit {
                lastKeys = try listing.keys.indices.map { try CatalogKey(row[CatalogListing.keyColumnOffset + $0] as DatabaseValue) }
            }
        }
        let page = Array(rows.prefix(limit))
        let items = try posts.items(db, rows: page)
        guard rows.count > limit, let last = page.last else { return (items, nil) }
        return (items, CatalogPosition(keys: lastKeys, id: last.id))
    }
}
