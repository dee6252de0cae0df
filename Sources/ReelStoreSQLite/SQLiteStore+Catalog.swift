import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    public func browse(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try Self.checkCatalogLimit(limit)
        let posts = feedPosts
        return try await read { db in
            let filter = try ResolvedCatalogFilter.resolve(db, query.filter, userID: userID)
            if filter.matchesNothing { return ([], nil) }
            if query.sort == .rating {
                return try Self.ratingPage(db, posts: posts, filter: filter, descending: query.descending, userID: userID, after: after, limit: limit)
            }
            return try Self.catalogPage(db, posts: posts, listing: CatalogListing.browse(query, filter: filter), userID: userID, after: after, limit: limit)
        }
    }

    /// The viewer's rating order in two walks, since no index can hold a per-viewer key: the
    /// posts they rated (few, from their own state rows) by rating, and the rest (rating 0) by
    /// id along the primary key, each from the cursor on. Descending: rated first; ascending:
    /// unrated first. A cursor's key (its rating) says which walk it is in.
    private static func ratingPage(
        _ db: Database, posts: FeedPostCache, filter: ResolvedCatalogFilter, descending: Bool, userID: Int64, after: CatalogPosition?, limit: Int
    ) throws -> (items: [FeedItem], next: CatalogPosition?) {
        guard after == nil || after?.keys.count == 1 else { throw StoreError.invalid("the position belongs to another order") }
        let rated = CatalogListing(
            source: ("(SELECT post_id, rating FROM post_user_state WHERE user_id = ? AND rating >= 1)", [userID]),
            filter: filter, keys: ["m.rating"], descending: descending
        )
        let unrated = CatalogListing(
            filter: filter,
            conditions: [("NOT EXISTS (SELECT 1 FROM post_user_state u WHERE u.user_id = ? AND u.post_id = p.id AND u.rating >= 1)", [userID])],
            keys: [], descending: descending, index: "NOT INDEXED"
        )
        let walks = descending ? [(rated, true), (unrated, false)] : [(unrated, false), (rated, true)]
        // The walk the cursor is in (a rating of 0 is the unrated walk); earlier walks are done.
        let current = after.map { position in walks.firstIndex { $0.1 == (position.keys.first != .integer(0)) } ?? 0 } ?? 0
        var rows: [(row: FeedRow, keys: [CatalogKey])] = []
        for (index, (listing, isRated)) in walks.enumerated() where index >= current && rows.count <= limit {
            var start: CatalogPosition?
            if index == current, let after { start = isRated ? after : CatalogPosition(keys: [], id: after.id) }
            let found = try catalogRows(db, listing: listing, userID: userID, after: start, limit: limit + 1 - rows.count)
            rows += found.map { ($0.row, isRated ? $0.keys : [.integer(0)]) }
        }
        return try finish(db, posts: posts, rows: rows, limit: limit)
    }

    public func shelf(_ shelf: Shelf, userID: Int64, library: Int64?, resume: ResumeRule, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
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
            var shelfFilter = CatalogListing.shelfFilter(shelf)
            shelfFilter.library = library
            let filter = try ResolvedCatalogFilter.resolve(db, shelfFilter, userID: userID)
            if filter.matchesNothing { return ([], nil) }
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
            let filter = try ResolvedCatalogFilter.resolve(db, query.filter, userID: userID)
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
        try finish(db, posts: posts, rows: catalogRows(db, listing: listing, userID: userID, after: after, limit: limit + 1), limit: limit)
    }

    /// Up to `limit` rows of the listing after `after`, each with its sort key values.
    private static func catalogRows(
        _ db: Database, listing: CatalogListing, userID: Int64, after: CatalogPosition?, limit: Int
    ) throws -> [(row: FeedRow, keys: [CatalogKey])] {
        guard limit > 0 else { return [] }
        let (sql, arguments) = try listing.page(userID: userID, after: after, limit: limit)
        var rows: [(row: FeedRow, keys: [CatalogKey])] = []
        // Not a cached statement: filters give queries too many shapes to keep one of each.
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            let keys = try listing.keys.indices.map { try CatalogKey(row[CatalogListing.keyColumnOffset + $0] as DatabaseValue) }
            rows.append((FeedRow(row), keys))
        }
        return rows
    }

    /// The first `limit` rows as items, and where the next page starts when a row is left over.
    private static func finish(
        _ db: Database, posts: FeedPostCache, rows: [(row: FeedRow, keys: [CatalogKey])], limit: Int
    ) throws -> (items: [FeedItem], next: CatalogPosition?) {
        let page = Array(rows.prefix(limit))
        let items = try posts.items(db, rows: page.map(\.row))
        guard rows.count > limit, let last = page.last else { return (items, nil) }
        return (items, CatalogPosition(keys: last.keys, id: last.row.id))
    }
}
