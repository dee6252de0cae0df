import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

/// The catalog's rows on PostgreSQL (see `CatalogBackend`): a `CatalogListing` rendered by
/// `PostgresCatalogSQL`, its filter resolved on the same connection.
extension PostgresStore: CatalogBackend {
    public func catalogRows(_ listing: CatalogListing, userID: Int64, after: CatalogPosition?, limit: Int) async throws -> [(row: FeedRow, keys: [CatalogKey])]? {
        try await read { connection in
            let filter = try await ResolvedCatalogFilter.resolve(connection, listing.filter, userID: userID, logger: logger)
            if filter.matchesNothing { return nil }
            let query = try PostgresCatalogSQL(listing: listing, filter: filter).page(userID: userID, after: after, limit: limit)
            return try await connection.query(query, logger: logger).collect().map { row in
                let cells = row.makeRandomAccess()
                let keys = try listing.keys.indices.map { try Self.catalogKey(cells[PostgresCatalogSQL.keyColumnOffset + $0]) }
                return (try FeedRow(row), keys)
            }
        }
    }

    public func tagExists(id: Int64) async throws -> Bool {
        try await read { connection in try await !connection.query("SELECT 1 FROM tags WHERE id = \(id)", logger: logger).collect().isEmpty }
    }

    public func collectionExists(id: Int64) async throws -> Bool {
        try await read { connection in try await !connection.query("SELECT 1 FROM collections WHERE id = \(id)", logger: logger).collect().isEmpty }
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
}
