import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore: CatalogStore {
    public func browse(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try Self.checkCatalogLimit(limit)
        return try await snapshot { connection in
            let filter = try await PostgresCatalogFilter.resolve(connection, query.filter, userID: userID, logger: logger)
            if filter.matchesNothing { return ([], nil) }
            if query.sort == .rating {
                return try await Self.ratingPage(connection, filter: filter, descending: query.descending, userID: userID, after: after, limit: limit, logger: logger)
            }
            let listing = PostgresCatalogListing.browse(query, filter: filter)
            return try await Self.catalogPage(connection, listing: listing, userID: userID, after: after, limit: limit, logger: logger)
        }
    }

    /// The viewer's rating order in two walks (as SQLite's store): the posts they rated by
    /// rating, and the rest (rating 0) by id, each from the cursor on. Descending: rated first.
    private static func ratingPage(
        _ connection: PostgresConnection, filter: PostgresCatalogFilter, descending: Bool, userID: Int64, after: CatalogPosition?,
        limit: Int, logger: Logger
    ) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        guard after == nil || after?.keys.count == 1 else { throw StoreError.invalid("the position belongs to another order") }
        let rated = PostgresCatalogListing(
            source: { "(SELECT post_id, rating FROM post_user_state WHERE user_id = \($0.bind(userID)) AND rating >= 1)" },
            filter: filter, keys: ["m.rating"], descending: descending
        )
        let unrated = PostgresCatalogListing(
            filter: filter,
            conditions: [{ "NOT EXISTS (SELECT 1 FROM post_user_state u WHERE u.user_id = \($0.bind(userID)) AND u.post_id = p.id AND u.rating >= 1)" }],
            keys: [], descending: descending
        )
        let walks = descending ? [(rated, true), (unrated, false)] : [(unrated, false), (rated, true)]
        // The walk the cursor is in (a rating of 0 is the unrated walk); earlier walks are done.
        let current = after.map { position in walks.firstIndex { $0.1 == !Self.isZero(position.keys.first) } ?? 0 } ?? 0
        var rows: [(row: PostgresFeedRow, keys: [CatalogKey])] = []
        for (index, (listing, isRated)) in walks.enumerated() where index >= current && rows.count <= limit {
            var start: CatalogPosition?
            if index == current, let after { start = isRated ? after : CatalogPosition(keys: [], id: after.id) }
            let found = try await catalogRows(connection, listing: listing, userID: userID, after: start, limit: limit + 1 - rows.count, logger: logger)
            rows += found.map { ($0.row, isRated ? $0.keys : [.integer(0)]) }
        }
        return try await finish(connection, rows: rows, limit: limit, logger: logger)
    }

    /// A rating key of 0 however the client's JSON brought it back (0 or 0.0).
    private static func isZero(_ key: CatalogKey?) -> Bool {
        switch key {
        case .integer(0)?: true
        case .real(let value)?: value == 0
        default: false
        }
    }

    public func shelf(_ shelf: Shelf, userID: Int64, library: Int64?, resume: ResumeRule, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try Self.checkCatalogLimit(limit)
        return try await snapshot { connection in
            switch shelf {
            case .tag(let id):
                try await Self.requireRow(connection, "SELECT 1 FROM tags WHERE id = $1", id, missing: "tag \(id)", logger: logger)
            case .collection(let id):
                try await Self.requireRow(connection, "SELECT 1 FROM collections WHERE id = $1", id, missing: "collection \(id)", logger: logger)
            default: break
            }
            var shelfFilter = PostgresCatalogListing.shelfFilter(shelf)
            shelfFilter.library = library
            let filter = try await PostgresCatalogFilter.resolve(connection, shelfFilter, userID: userID, logger: logger)
            if filter.matchesNothing { return ([], nil) }
            let listing = PostgresCatalogListing.shelf(shelf, userID: userID, resume: resume, filter: filter)
            return try await Self.catalogPage(connection, listing: listing, userID: userID, after: after, limit: limit, logger: logger)
        }
    }

    public func popularTags(limit: Int) async throws -> [TagCount] {
        try await read { connection in
            try await connection.query("""
                SELECT v.id, v.name, count(*) AS uses
                FROM post_tag_ids l JOIN tags v ON v.id = l.tag_id JOIN posts p ON p.id = l.post_id
                WHERE p.status = 'ready'
                GROUP BY v.id ORDER BY uses DESC, v.name_key COLLATE "C", v.id LIMIT \(max(0, limit))
                """, logger: logger).collect().map { row in
                let (id, name, uses) = try row.decode((Int64, String, Int64).self)
                return TagCount(id: id, name: name, count: Int(uses))
            }
        }
    }

    public func tagName(id: Int64) async throws -> String? {
        try await read { connection in
            try await connection.query("SELECT name FROM tags WHERE id = \(id)", logger: logger).collect().first?.decode(String.self)
        }
    }

    private static func checkCatalogLimit(_ limit: Int) throws {
        guard (1...maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a catalog page holds 1 to \(maxFeedPage) posts, not \(limit)")
        }
    }

    /// Reads `limit + 1` rows (the extra one tells whether another page follows).
    private static func catalogPage(
        _ connection: PostgresConnection, listing: PostgresCatalogListing, userID: Int64, after: CatalogPosition?, limit: Int, logger: Logger
    ) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        let rows = try await catalogRows(connection, listing: listing, userID: userID, after: after, limit: limit + 1, logger: logger)
        return try await finish(connection, rows: rows, limit: limit, logger: logger)
    }

    /// Up to `limit` rows of the listing after `after`, each with its sort key values.
    private static func catalogRows(
        _ connection: PostgresConnection, listing: PostgresCatalogListing, userID: Int64, after: CatalogPosition?, limit: Int, logger: Logger
    ) async throws -> [(row: PostgresFeedRow, keys: [CatalogKey])] {
        guard limit > 0 else { return [] }
        let query = try listing.page(userID: userID, after: after, limit: limit)
        return try await connection.query(query, logger: logger).collect().map { row in
            let cells = row.makeRandomAccess()
            let keys = try listing.keys.indices.map { try Self.catalogKey(cells[7 + $0]) }
            return (try PostgresFeedRow(row), keys)
        }
    }

    /// A sort key value as the cursor carries it: numbers as numbers, text as text.
    private static func catalogKey(_ cell: PostgresCell) throws -> CatalogKey {
        switch cell.dataType {
        case .int2: .integer(Int64(try cell.decode(Int16.self)))
        case .int4: .integer(Int64(try cell.decode(Int32.self)))
        case .int8: .integer(try cell.decode(Int64.self))
        case .float8: .real(try cell.decode(Double.self))
        case .float4: .real(Double(try cell.decode(Float.self)))
        default: .text(try cell.decode(String.self))
        }
    }

    /// The first `limit` rows as items, and where the next page starts when a row is left over.
    private static func finish(
        _ connection: PostgresConnection, rows: [(row: PostgresFeedRow, keys: [CatalogKey])], limit: Int, logger: Logger
    ) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        let page = Array(rows.prefix(limit))
        let items = try await Self.items(connection, rows: page.map(\.row), logger: logger)
        guard rows.count > limit, let last = page.last else { return (items, nil) }
        return (items, CatalogPosition(keys: last.keys, id: last.row.id))
    }
}
