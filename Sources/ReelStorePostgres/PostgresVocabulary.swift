import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// The tag and flag vocabularies on PostgreSQL: names match ignoring ASCII case, as SQLite's
/// NOCASE column does, through `name_key` (`TagName.key`).
extension Vocabulary {
    /// The id of `name`, creating the entry if needed.
    func ensureID(_ connection: PostgresConnection, name: String, logger: Logger) async throws -> Int64 {
        let key = TagName.key(name)
        let rows = try await connection.query("""
            WITH inserted AS (
                INSERT INTO \(unescaped: table) (name, name_key) VALUES (\(name), \(key)) ON CONFLICT (name_key) DO NOTHING RETURNING id
            )
            SELECT id FROM inserted UNION ALL SELECT id FROM \(unescaped: table) WHERE name_key = \(key)
            """, logger: logger).collect()
        guard let id = try rows.first?.decode(Int64.self) else {
            throw StoreError.corrupt("\(table) entry \(name) vanished inside its own transaction")
        }
        return id
    }

    /// Appends names the post does not carry yet, in order; blanks and repeats are dropped.
    func attach(_ connection: PostgresConnection, postID: Int64, names: [String], logger: Logger) async throws {
        for name in names where !TagName.isBlank(name) {
            let id = try await ensureID(connection, name: name, logger: logger)
            try await connection.query("""
                INSERT INTO \(unescaped: link) (post_id, \(unescaped: column)) VALUES (\(postID), \(id)) ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    func replace(_ connection: PostgresConnection, postID: Int64, names: [String], logger: Logger) async throws {
        try await connection.query("DELETE FROM \(unescaped: link) WHERE post_id = \(postID)", logger: logger)
        try await attach(connection, postID: postID, names: names, logger: logger)
    }

    /// Each post's names in the order they were attached, for the whole batch in one query.
    func names(_ connection: PostgresConnection, postIDs: [Int64], logger: Logger) async throws -> [Int64: [String]] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try await connection.query("""
            SELECT l.post_id, v.name FROM \(unescaped: link) l JOIN \(unescaped: table) v ON v.id = l.\(unescaped: column)
            WHERE l.post_id = ANY(\(postIDs)) ORDER BY l.seq
            """, logger: logger).collect()
        var result: [Int64: [String]] = [:]
        for row in rows {
            let (postID, name) = try row.decode((Int64, String).self)
            result[postID, default: []].append(name)
        }
        return result
    }

    func detach(_ connection: PostgresConnection, postID: Int64, name: String, logger: Logger) async throws {
        try await connection.query("""
            DELETE FROM \(unescaped: link) WHERE post_id = \(postID)
              AND \(unescaped: column) IN (SELECT id FROM \(unescaped: table) WHERE name_key = \(TagName.key(name)))
            """, logger: logger)
    }

    /// Each post's entries with their ids, in the order they were attached, with count 0.
    func refs(_ connection: PostgresConnection, postIDs: [Int64], logger: Logger) async throws -> [Int64: [TagCount]] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try await connection.query("""
            SELECT l.post_id, v.id, v.name FROM \(unescaped: link) l JOIN \(unescaped: table) v ON v.id = l.\(unescaped: column)
            WHERE l.post_id = ANY(\(postIDs)) ORDER BY l.seq
            """, logger: logger).collect()
        var result: [Int64: [TagCount]] = [:]
        for row in rows {
            let (postID, id, name) = try row.decode((Int64, Int64, String).self)
            result[postID, default: []].append(TagCount(id: id, name: name, count: 0))
        }
        return result
    }

    /// Entries carried by at least one ready post, most used first, then by name ignoring
    /// ASCII case (as SQLite's NOCASE column sorts), then id. `libraryIDs`: only these libraries' posts.
    func counts(_ connection: PostgresConnection, libraryIDs: [Int64]? = nil, logger: Logger) async throws -> [TagCount] {
        try await connection.query("""
            SELECT v.id, v.name, count(*) AS uses
            FROM \(unescaped: link) l JOIN \(unescaped: table) v ON v.id = l.\(unescaped: column) JOIN posts p ON p.id = l.post_id
            WHERE p.status = 'ready' AND (\(libraryIDs)::bigint[] IS NULL OR p.library_id = ANY(\(libraryIDs)::bigint[]))
            GROUP BY v.id
            ORDER BY uses DESC, v.name_key COLLATE "C", v.id
            """, logger: logger).collect().map { row in
            let (id, name, uses) = try row.decode((Int64, String, Int64).self)
            return TagCount(id: id, name: name, count: Int(uses))
        }
    }

    /// Ids of the names that exist (ignoring ASCII case); unknown and blank names are skipped.
    func existingIDs(_ connection: PostgresConnection, names: [String], logger: Logger) async throws -> [Int64] {
        let keys = names.filter { !TagName.isBlank($0) }.map(TagName.key)
        guard !keys.isEmpty else { return [] }
        return try await connection.query(
            "SELECT id FROM \(unescaped: table) WHERE name_key = ANY(\(keys)) ORDER BY id", logger: logger
        ).collect().map { try $0.decode(Int64.self) }
    }
}
