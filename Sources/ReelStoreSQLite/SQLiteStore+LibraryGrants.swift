import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore: LibraryGrantStore {
    public func libraries() async throws -> [LibraryRecord] {
        try await read { db in try Self.fetchLibraries(db, where: "1", []) }
    }

    public func library(id: Int64) async throws -> LibraryRecord? {
        try await read { db in try Self.fetchLibraries(db, where: "id = ?", [id]).first }
    }

    public func library(name: String) async throws -> LibraryRecord? {
        let key = Self.nameKey(name)
        return try await read { db in try Self.fetchLibraries(db, where: "name_key = ?", [key]).first }
    }

    public func createLibrary(name: String, now: Date) async throws -> LibraryRecord {
        let name = try Self.libraryName(name)
        return try await write { db in
            try Self.requireFreeLibraryName(db, name, except: nil)
            try db.execute(
                sql: "INSERT INTO libraries (name, name_key, created_at) VALUES (?, ?, ?)",
                arguments: [name, Self.nameKey(name), RowDecoding.seconds(now)]
            )
            return try Self.requireLibrary(db, id: db.lastInsertedRowID)
        }
    }

    public func renameLibrary(id: Int64, name: String) async throws -> LibraryRecord {
        let name = try Self.libraryName(name)
        return try await write { db in
            _ = try Self.requireLibrary(db, id: id)
            try Self.requireFreeLibraryName(db, name, except: id)
            try db.execute(sql: "UPDATE libraries SET name = ?, name_key = ? WHERE id = ?", arguments: [name, Self.nameKey(name), id])
            return try Self.requireLibrary(db, id: id)
        }
    }

    public func setMembers(libraryID: Int64, userIDs: [Int64]) async throws -> LibraryRecord {
        try await write { db in
            _ = try Self.requireLibrary(db, id: libraryID)
            for userID in Set(userIDs) { try Self.requireUser(db, id: userID) }
            try db.execute(sql: "DELETE FROM library_grants WHERE library_id = ?", arguments: [libraryID])
            for userID in Set(userIDs) {
                try db.execute(sql: "INSERT INTO library_grants (user_id, library_id) VALUES (?, ?)", arguments: [userID, libraryID])
            }
            return try Self.requireLibrary(db, id: libraryID)
        }
    }

    public func grant(libraryID: Int64, userID: Int64) async throws {
        try await write { db in
            _ = try Self.requireLibrary(db, id: libraryID)
            try Self.requireUser(db, id: userID)
            try db.execute(sql: "INSERT OR IGNORE INTO library_grants (user_id, library_id) VALUES (?, ?)", arguments: [userID, libraryID])
        }
    }

    public func revoke(libraryID: Int64, userID: Int64) async throws {
        try await write { db in
            _ = try Self.requireLibrary(db, id: libraryID)
            try Self.requireUser(db, id: userID)
            try db.execute(sql: "DELETE FROM library_grants WHERE user_id = ? AND library_id = ?", arguments: [userID, libraryID])
        }
    }

    public func keepsArchivedStories(libraryID: Int64) async throws -> Bool {
        try await read { db in try Self.requireLibrary(db, id: libraryID).keepArchivedStories }
    }

    public func setKeepArchivedStories(libraryID: Int64, keep: Bool) async throws -> LibraryRecord {
        try await write { db in
            _ = try Self.requireLibrary(db, id: libraryID)
            try db.execute(sql: "UPDATE libraries SET keep_archived_stories = ? WHERE id = ?", arguments: [keep, libraryID])
            return try Self.requireLibrary(db, id: libraryID)
        }
    }

    public func scope(userID: Int64, requested: Int64?) async throws -> LibraryScope {
        try await read { db in try Self.scope(db, userID: userID, requested: requested) }
    }

    // MARK: - Inside a transaction

    /// One small indexed read through a cached statement (the user's role, their grants, how
    /// many libraries there are, whether the requested one exists): this runs on every feed page.
    static func scope(_ db: Database, userID: Int64, requested: Int64?) throws -> LibraryScope {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT u.role AS role, (SELECT COUNT(*) FROM libraries) AS total,
                   (SELECT group_concat(library_id) FROM library_grants g WHERE g.user_id = u.id) AS granted,
                   EXISTS (SELECT 1 FROM libraries WHERE id = ?) AS requested_exists
            FROM users u WHERE u.id = ?
            """), arguments: [requested ?? 0, userID])
        let facts = row.map { row in
            ScopeFacts(
                role: (row["role"] as String?).flatMap(UserRole.init), libraryCount: row["total"],
                granted: (row["granted"] as String?)?.split(separator: ",").compactMap { Int64($0) } ?? [],
                requestedExists: row["requested_exists"]
            )
        }
        return try LibraryScope.resolve(facts, requested: requested)
    }

    @discardableResult
    static func requireLibrary(_ db: Database, id: Int64) throws -> LibraryRecord {
        guard let library = try fetchLibraries(db, where: "id = ?", [id]).first else { throw StoreError.notFound("library \(id)") }
        return library
    }

    static func fetchLibraries(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [LibraryRecord] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT l.id, l.name, l.keep_archived_stories,
                   (SELECT COUNT(*) FROM posts p WHERE p.library_id = l.id AND p.status = 'ready') AS post_count,
                   (SELECT group_concat(user_id) FROM (SELECT user_id FROM library_grants g WHERE g.library_id = l.id ORDER BY user_id)) AS members
            FROM libraries l WHERE \(condition) ORDER BY l.id
            """, arguments: arguments)
        return rows.map { row in
            let members = (row["members"] as String?)?.split(separator: ",").compactMap { Int64($0) } ?? []
            return LibraryRecord(
                id: row["id"], name: row["name"], postCount: row["post_count"], members: members,
                keepArchivedStories: row["keep_archived_stories"]
            )
        }
    }

    static func libraryName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 64, !trimmed.contains(where: \.isNewline) else {
            throw StoreError.invalid("a library name is 1 to 64 characters on one line")
        }
        return trimmed
    }

    private static func requireFreeLibraryName(_ db: Database, _ name: String, except id: Int64?) throws {
        let taken = try Int64.fetchOne(db, sql: "SELECT id FROM libraries WHERE name_key = ?", arguments: [nameKey(name)])
        if let taken, taken != id { throw StoreError.conflict("a library named \(name) exists") }
    }
}
