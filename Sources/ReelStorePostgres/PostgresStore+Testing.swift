import Foundation
import PostgresNIO

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
