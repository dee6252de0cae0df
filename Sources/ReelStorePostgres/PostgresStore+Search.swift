import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

/// Full-text search on PostgreSQL, answering as `SQLiteStore` does: the same `SearchPlan`
/// over the same folded fields (`Schema.search`), so the same posts in the same order.
extension PostgresStore: SearchStore {
    public static let maxSearchResults = SearchPlan.maxResults
    public var maxSearchResults: Int { Self.maxSearchResults }

    public func search(userID: Int64, library: Int64?, query: SearchQuery, offset: Int, limit: Int) async throws -> SearchResults {
        try SearchPlan.checkPage(offset: offset, limit: limit, maxPage: Self.maxFeedPage)
        // One snapshot, as SQLite's read transaction: the scope and the page agree.
        let found: (rows: [FeedRow], fetched: Int, terms: [String]) = try await snapshot { connection in
            // Scoped first: a library not granted is "not found" even for an empty query.
            let libraryIDs = try await Self.scope(connection, userID: userID, requested: library, logger: logger).libraryIDs
            guard !query.isEmpty, libraryIDs?.isEmpty != true else { return ([], 0, []) }
            let folded = try await Self.foldedWords(connection, query: query, logger: logger)
            let plan = SearchPlan(query) { folded[$0] ?? [] }
            guard !plan.matchesNothing else { return ([], 0, plan.terms) }
            let statement = PostgresSearchStatement(
                userID: userID, plan: plan, libraryIDs: libraryIDs, offset: offset, limit: limit + 1, candidates: Self.maxSearchResults
            )
            let rows = try await connection.query(statement.query, logger: logger).collect().map(FeedRow.init)
            return (Array(rows.prefix(limit)), rows.count, plan.terms)
        }
        return SearchResults(
            items: try await items(found.rows), hasMore: SearchPlan.hasMore(fetched: found.fetched, offset: offset, limit: limit), terms: found.terms
        )
    }

    public func rebuildSearchIndex() async throws -> Int {
        try await write { connection in
            try await connection.query("DELETE FROM post_search_fields", logger: logger)
            try await connection.query(
                "SELECT reelhouse_search_reindex(ARRAY(SELECT id FROM posts WHERE status = 'ready'))", logger: logger
            )
            let rows = try await connection.query("SELECT count(*) FROM post_search_fields", logger: logger).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    /// Each word of `query` folded by the database, as the index folds the posts' text
    /// (`reelhouse_search_words`): usually one word; none or several when folding drops a
    /// character or splits one ("½" → "1 2").
    static func foldedWords(_ connection: PostgresConnection, query: SearchQuery, logger: Logger) async throws -> [String: [String]] {
        let words = Array(Set(query.words + query.phrases.flatMap { $0 } + query.people))
        guard !words.isEmpty else { return [:] }
        let rows = try await connection.query("""
            SELECT w, array_to_string(reelhouse_search_words(w), ' ') FROM unnest(\(words)::text[]) AS u(w)
            """, logger: logger).collect()
        var folded: [String: [String]] = [:]
        for row in rows {
            let (word, text) = try row.decode((String, String).self)
            folded[word] = text.split(separator: " ").map(String.init)
        }
        return folded
    }
}

extension PostgresStore {
    /// PostgreSQL's plan for the statement a first page of `query` runs, one line per plan node
    /// (`EXPLAIN`): for the tests that pin which index each kind of word uses.
    func searchQueryPlan(userID: Int64, query: SearchQuery) async throws -> [String] {
        try await read { connection in
            let folded = try await Self.foldedWords(connection, query: query, logger: logger)
            var statement = PostgresSearchStatement(
                userID: userID, plan: SearchPlan(query) { folded[$0] ?? [] }, libraryIDs: nil, offset: 0, limit: 25,
                candidates: Self.maxSearchResults
            ).query
            statement.sql = "EXPLAIN " + statement.sql
            return try await connection.query(statement, logger: logger).collect().map { try $0.decode(String.self) }
        }
    }
}
