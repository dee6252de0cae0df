import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

extension SQLiteStore {
    /// How deep search results go: pages are read by offset (simple, and a ranked result has
    /// no stable key to seek from), and a search ranks at most this many matches (the newest),
    /// so its cost is bounded however many posts match (`SearchStatement`).
    public static let maxSearchResults = SearchPlan.maxResults
    public var maxSearchResults: Int { Self.maxSearchResults }

    public func search(userID: Int64, library: Int64?, query: SearchQuery, offset: Int, limit: Int) async throws -> SearchResults {
        try SearchPlan.checkPage(offset: offset, limit: limit, maxPage: Self.maxFeedPage)
        let found: (rows: [FeedRow], fetched: Int, terms: [String]) = try await read { db in
            // Scoped first: a library not granted is "not found" even for an empty query.
            let libraryIDs = try Self.scope(db, userID: userID, requested: library).libraryIDs
            guard !query.isEmpty, libraryIDs?.isEmpty != true else { return ([], 0, []) }
            let plan = SearchPlan(query) { [SearchFolding.fold($0)] }
            guard !plan.matchesNothing else { return ([], 0, plan.terms) }
            let statement = SearchStatement(
                userID: userID, plan: plan, libraryIDs: libraryIDs, offset: offset, limit: limit + 1, candidates: Self.maxSearchResults
            )
            // Not a cached statement: queries have too many shapes to keep one of each per connection.
            let rows = try Row.fetchAll(db, sql: statement.sql, arguments: statement.arguments).map(FeedRow.init)
            return (Array(rows.prefix(limit)), rows.count, statement.terms)
        }
        return SearchResults(
            items: try await items(found.rows), hasMore: SearchPlan.hasMore(fetched: found.fetched, offset: offset, limit: limit), terms: found.terms
        )
    }

    public func rebuildSearchIndex() async throws -> Int {
        try await write { db in
            try db.execute(sql: SearchIndexSQL.rebuild())
            try db.execute(sql: "INSERT INTO post_search_fields (post_search_fields) VALUES ('optimize')")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post_search_fields") ?? 0
        }
    }
}
