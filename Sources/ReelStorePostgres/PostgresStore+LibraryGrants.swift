import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore: LibraryGrantStore {
    public func libraries() async throws -> [LibraryRecord] {
        try await read { connection in try await Self.fetchLibraries(connection, id: nil, nameKey: nil, logger: logger) }
    }

    public func library(id: Int64) async throws -> LibraryRecord? {
        try await read { connection in try await Self.fetchLibraries(connection, id: id, nameKey: nil, logger: logger).first }
    }

    public func library(name: String) async throws -> LibraryRecord? {
        let key = Self.nameKey(name)
        return try await read { connection in try await Self.fetchLibraries(connection, id: nil, nameKey: key, logger: logger).first }
    }

    public func createLibrary(name: String, now: Date) async throws -> LibraryRecord {
        let name = try Self.libraryName(name)
        return try await write { connection in
            try await Self.requireFreeLibraryName(connection, name, except: nil, logger: logger)
            let rows = try await connection.query("""
                INSERT INTO libraries (name, name_key, created_at) VALUES (\(name), \(Self.nameKey(name)), \(now.timeIntervalSince1970))
                RETURNING id
                """, logger: logger).collect()
            guard let id = try rows.first?.decode(Int64.self) else { throw StoreError.corrupt("library insert returned no row") }
            return try await Self.requireLibrary(connection, id: id, logger: logger)
        }
    }

    public func renameLibrary(id: Int64, name: String) async throws -> LibraryRecord {
        let name = try Self.libraryName(name)
        return try await write { connection in
            _ = try await Self.requireLibrary(connection, id: id, logger: logger)
            try await Self.requireFreeLibraryName(connection, name, except: id, logger: logger)
            try await connection.query(
                "UPDATE libraries SET name = \(name), name_key = \(Self.nameKey(name)) WHERE id = \(id)", logger: logger
            )
            return try await Self.requireLibrary(connection, id: id, logger: logger)
        }
    }

    public func setMembers(libraryID: Int64, userIDs: [Int64]) async throws -> LibraryRecord {
        try await write { connection in
            _ = try await Self.requireLibrary(connection, id: libraryID, logger: logger)
            let members = Array(Set(userIDs)).sorted()
            for userID in members { try await Self.requireUser(connection, id: userID, logger: logger) }
            try await connection.query("DELETE FROM library_grants WHERE library_id = \(libraryID)", logger: logger)
            try await connection.query("""
                INSERT INTO library_grants (user_id, library_id) SELECT unnest(\(members)::bigint[]), \(libraryID)
                """, logger: logger)
            return try await Self.requireLibrary(connection, id: libraryID, logger: logger)
        }
    }

    public func grant(libraryID: Int64, userID: Int64) async throws {
        try await write { connection in
            _ = try await Self.requireLibrary(connection, id: libraryID, logger: logger)
            try await Self.requireUser(connection, id: userID, logger: logger)
            _ = try await connection.query(
                "INSERT INTO library_grants (user_id, library_id) VALUES (\(userID), \(libraryID)) ON CONFLICT DO NOTHING", logger: logger
            )
        }
    }

    public func revoke(libraryID: Int64, userID: Int64) async throws {
        try await write { connection in
            _ = try await Self.requireLibrary(connection, id: libraryID, logger: logger)
            try await Self.requireUser(connection, id: userID, logger: logger)
            _ = try await connection.query(
                "DELETE FROM library_grants WHERE user_id = \(userID) AND library_id = \(libraryID)", logger: logger
            )
        }
    }

    public func keepsArchivedStories(libraryID: Int64) async throws -> Bool {
        try await read { connection in try await Self.requireLibrary(connection, id: libraryID, logger: logger).keepArchivedStories }
    }

    public func setKeepArchivedStories(libraryID: Int64, keep: Bool) async throws -> LibraryRecord {
        try await write { connection in
            _ = try await Self.requireLibrary(connection, id: libraryID, logger: logger)
            try await connection.query("UPDATE libraries SET keep_archived_stories = \(keep) WHERE id = \(libraryID)", logger: logger)
            return try await Self.requireLibrary(connection, id: libraryID, logger: logger)
        }
    }

    public func scope(userID: Int64, requested: Int64?) async throws -> LibraryScope {
        try await read { connection in try await Self.scope(connection, userID: userID, requested: requested, logger: logger) }
    }

    // MARK: - Inside a transaction

    static func requireLibrary(_ connection: PostgresConnection, id: Int64, logger: Logger) async throws -> LibraryRecord {
        guard let library = try await fetchLibraries(connection, id: id, nameKey: nil, logger: logger).first else {
            throw StoreError.notFound("library \(id)")
        }
        return library
    }

    /// Libraries (one by id or name key, or all), oldest first, with their ready posts counted
    /// and their members' ids in order.
    static func fetchLibraries(_ connection: PostgresConnection, id: Int64?, nameKey: String?, logger: Logger) async throws -> [LibraryRecord] {
        try await connection.query("""
            SELECT l.id, l.name, l.keep_archived_stories,
                   (SELECT count(*) FROM posts p WHERE p.library_id = l.id AND p.status = 'ready'),
                   ARRAY(SELECT user_id FROM library_grants g WHERE g.library_id = l.id ORDER BY user_id)
            FROM libraries l
            WHERE (\(id)::bigint IS NULL OR l.id = \(id)) AND (\(nameKey)::text IS NULL OR l.name_key = \(nameKey))
            ORDER BY l.id
            """, logger: logger).collect().map { row in
            let (id, name, keep, count, members) = try row.decode((Int64, String, Bool, Int64, [Int64]).self)
            return LibraryRecord(id: id, name: name, postCount: Int(count), members: members, keepArchivedStories: keep)
        }
    }

    static func libraryName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 64, !trimmed.contains(where: \.isNewline) else {
            throw StoreError.invalid("a library name is 1 to 64 characters on one line")
        }
        return trimmed
    }

    private static func requireFreeLibraryName(_ connection: PostgresConnection, _ name: String, except id: Int64?, logger: Logger) async throws {
        let rows = try await connection.query("SELECT id FROM libraries WHERE name_key = \(nameKey(name))", logger: logger).collect()
        if let taken = try rows.first?.decode(Int64.self), taken != id { throw StoreError.conflict("a library named \(name) exists") }
    }
}
