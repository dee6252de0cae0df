import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    /// How stale `lastUsedAt` may get: refreshing it on every request would turn each
    /// authenticated read into a write and serialise the server on SQLite's write lock.
    static let lastUsedGranularity: TimeInterval = 60

    public func createUser(name: String, role: UserRole, passwordHash: String, now: Date) async throws -> User {
        guard !TagName.isBlank(name) else { throw StoreError.invalid("a user name cannot be blank") }
        let key = Self.nameKey(name)
        guard !StoryRouteNames.reserved.contains(key) else {
            throw StoreError.invalid("the user name \(name) is reserved (a stories route uses it)")
        }
        return try await write { db in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE name_key = ?)", arguments: [key]) == true {
                throw StoreError.conflict("the user name \(name) is taken")
            }
            try db.execute(
                sql: "INSERT INTO users (name, name_key, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [name, key, role.rawValue, passwordHash, RowDecoding.seconds(now)]
            )
            guard let user = try Self.fetchUser(db, where: "id = ?", [db.lastInsertedRowID]) else {
                throw StoreError.corrupt("user vanished inside its own transaction")
            }
            return user
        }
    }

    public func user(id: Int64) async throws -> User? {
        try await read { db in try Self.fetchUser(db, where: "id = ?", [id]) }
    }

    public func user(name: String) async throws -> User? {
        let key = Self.nameKey(name)
        return try await read { db in try Self.fetchUser(db, where: "name_key = ?", [key]) }
    }

    /// Oldest first, so the owner created at setup leads the list.
    public func users() async throws -> [User] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY id").map(RowDecoding.user) }
    }

    public func countUsers() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0 }
    }

    public func passwordHash(userID: Int64) async throws -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [userID]) }
    }

    /// API keys survive a password change: they are separate credentials, revoked one by one.
    public func setPasswordHash(userID: Int64, passwordHash: String, keepingSession: String?) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [passwordHash, userID])
            guard db.changesCount > 0 else { throw StoreError.notFound("user \(userID)") }
            try db.execute(
                sql: "DELETE FROM sessions WHERE user_id = ? AND token_hash IS NOT ?", arguments: [userID, keepingSession]
            )
        }
    }

    public func createAPIKey(userID: Int64, name: String, keyHash: String, prefix: String, now: Date) async throws -> APIKeyRecord {
        try await write { db in
            try Self.requireUser(db, id: userID)
            try db.execute(
                sql: "INSERT INTO api_keys (user_id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [userID, name, keyHash, prefix, RowDecoding.seconds(now)]
            )
            return try Self.fetchAPIKey(db, id: db.lastInsertedRowID)
        }
    }

    /// Oldest first.
    public func apiKeys(userID: Int64?) async throws -> [APIKeyRecord] {
        try await read { db in
            if let userID {
                return try Row.fetchAll(db, sql: "SELECT * FROM api_keys WHERE user_id = ? ORDER BY id", arguments: [userID])
                    .map(RowDecoding.apiKey)
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM api_keys ORDER BY id").map(RowDecoding.apiKey)
        }
    }

    /// Revoking twice keeps the first revocation time.
    public func revokeAPIKey(id: Int64, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?",
                arguments: [RowDecoding.seconds(now), id]
            )
            guard db.changesCount > 0 else { throw StoreError.notFound("API key \(id)") }
        }
    }

    /// A read on the hot path; the write that refreshes `lastUsedAt` happens only when the
    /// stored value is a minute old or more.
    public func authenticate(apiKeyHash: String, now: Date) async throws -> (User, APIKeyRecord)? {
        let nowSeconds = RowDecoding.seconds(now)
        let found: (User, APIKeyRecord)? = try await read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL", arguments: [apiKeyHash]
            ) else { return nil }
            let record = try RowDecoding.apiKey(row)
            guard let user = try Self.fetchUser(db, where: "id = ?", [record.userID]) else { return nil }
            return (user, record)
        }
        guard let (user, record) = found else { return nil }
        if let lastUsed = record.lastUsedAt, nowSeconds - RowDecoding.seconds(lastUsed) < Self.lastUsedGranularity {
            return (user, record)
        }
        let refreshed: APIKeyRecord? = try await write { db in
            try db.execute(
                sql: "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND revoked_at IS NULL",
                arguments: [nowSeconds, record.id]
            )
            // Revoked (or deleted) between the read and the write: the key no longer works.
            guard db.changesCount > 0 else { return nil }
            return try Self.fetchAPIKey(db, id: record.id)
        }
        return refreshed.map { (user, $0) }
    }

    public func createSession(userID: Int64, tokenHash: String, expiresAt: Date, now: Date) async throws {
        try await write { db in
            try Self.requireUser(db, id: userID)
            try db.execute(
                sql: "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, userID, RowDecoding.seconds(now), RowDecoding.seconds(expiresAt)]
            )
        }
    }

    public func authenticate(sessionTokenHash: String, now: Date) async throws -> User? {
        try await read { db in
            try Self.fetchUser(
                db, where: "id = (SELECT user_id FROM sessions WHERE token_hash = ? AND expires_at > ?)",
                [sessionTokenHash, RowDecoding.seconds(now)]
            )
        }
    }

    /// Deleting a session that does not exist is not an error (logging out twice is fine).
    public func deleteSession(tokenHash: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [tokenHash]) }
    }

    public func deleteExpiredSessions(now: Date) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [RowDecoding.seconds(now)])
            return db.changesCount
        }
    }

    // MARK: - Helpers

    /// Unicode-aware "ignoring case": NFC, then lowercased, so "Émile" and "émile" (however
    /// either was typed) are one name.
    static func nameKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }

    static func fetchUser(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> User? {
        try Row.fetchOne(db, sql: "SELECT * FROM users WHERE \(condition)", arguments: arguments).map(RowDecoding.user)
    }

    static func requireUser(_ db: Database, id: Int64) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [id]) == true else {
            throw StoreError.notFound("user \(id)")
        }
    }

    private static func fetchAPIKey(_ db: Database, id: Int64) throws -> APIKeyRecord {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM api_keys WHERE id = ?", arguments: [id]) else {
            throw StoreError.corrupt("API key \(id) vanished inside its own transaction")
        }
        return try RowDecoding.apiKey(row)
    }
}

extension RowDecoding {
    static func user(_ row: Row) throws -> User {
        let id: Int64 = row["id"]
        return User(
            id: id, name: row["name"], role: try enumValue(row["role"], UserRole.self, what: "user \(id) role"),
            createdAt: date(row["created_at"])
        )
    }

    static func apiKey(_ row: Row) throws -> APIKeyRecord {
        APIKeyRecord(
            id: row["id"], userID: row["user_id"], name: row["name"], prefix: row["prefix"],
            createdAt: date(row["created_at"]), lastUsedAt: (row["last_used_at"] as Double?).map(date),
            revokedAt: (row["revoked_at"] as Double?).map(date)
        )
    }

    /// A `post_user_state` row's viewer columns (feed queries use `viewerState(_:columns:)`).
    static func viewerState(_ row: Row) -> ViewerState {
        ViewerState(
            isFavorited: (row["favorited_at"] as Double?) != nil,
            rating: (row["rating"] as Int?) ?? 0,
            position: row["position"],
            seenAt: (row["seen_at"] as Double?).map(date)
        )
    }
}
