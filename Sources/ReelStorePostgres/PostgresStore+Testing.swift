import Foundation
import PostgresNIO
import ReelStore
import ReelStoreCore

/// Reaches past the protocols, for tests only (internal: `@testable import` sees them).
extension PostgresStore {
    /// Runs one statement as it is; for tests that shape a database beyond what the protocols
    /// can (a large library in one statement, ANALYZE).
    func executeForTesting(_ sql: String) async throws {
        try await write { connection in _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
    }

    /// The first column of every row of `sql`, as text (PostgreSQL's own rendering).
    func rawStrings(_ sql: String) async throws -> [String] {
        try await read { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT c::text FROM (\(sql)) AS q(c)"), logger: logger)
                .collect().map { try $0.decode(String.self) }
        }
    }
}

extension PostgresStore {
    /// PostgreSQL's plan for a browse page, one line per plan node: the tests pin which index
    /// each order uses.
    func browseQueryPlan(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> [String] {
        try await read { connection in
            let filter = try await ResolvedCatalogFilter.resolve(connection, query.filter, userID: userID, logger: logger)
            var page = try PostgresCatalogSQL(listing: CatalogListing.browse(query), filter: filter).page(userID: userID, after: after, limit: limit + 1)
            page.sql = "EXPLAIN " + page.sql
            return try await connection.query(page, logger: logger).collect().map { try $0.decode(String.self) }
        }
    }
}
