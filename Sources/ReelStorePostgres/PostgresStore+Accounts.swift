import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore: AccountStore {
    /// How stale `lastUsedAt` may get (as SQLite's store): a write per request would put a
    /// write on every authenticated read.
    static let lastUsedGranularity: TimeInterval = 60

    public func createUser(name: String, role: UserRole, passwordHash: String, now: Date) async throws -> User {
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StoreError.invalid("a user name cannot be blank")
        }
        let key = Self.nameKey(name)
        guard !StoryRouteNames.reserved.contains(key) else {
            throw StoreError.invalid("the user name \(name) is reserved (a stories route uses it)")
        }
        return try await write { connection in
            // ON CONFLICT keeps a taken name a clean `conflict` even when two nodes race for it.
            let rows = try await connection.query("""
                INSERT INTO users (name, name_key, role, password_hash, created_at)
                VALUES (\(name), \(key), \(role.rawValue), \(passwordHash), \(now.timeIntervalSince1970))
                ON CONFLICT (name_key) DO NOTHING
                RETURNING id, name, role, created_at
                """, logger: logger).collect()
            guard let row = rows.first else { throw StoreError.conflict("the user name \(name) is taken") }
            return try Self.user(row)
        }
    }

    public func user(id: Int64) async throws -> User? {
        try await read { connection in
            try await connection.query("SELECT id, name, role, created_at FROM users WHERE id = \(id)", logger: logger)
                .collect().first.map(Self.user)
        }
    }

    public func user(name: String) async throws -> User? {
        let key = Self.nameKey(name)
        return try await read { connection in
            try await connection.query("SELECT id, name, role, created_at FROM users WHERE name_key = \(key)", logger: logger)
                .collect().first.map(Self.user)
        }
    }

    /// Oldest first, so the owner created at setup leads the list.
    public func users() async throws -> [User] {
        try await read { connection in
            try await connection.query("SELECT id, name, role, created_at FROM users ORDER BY id", logger: logger)
                .collect().map(Self.user)
        }
    }

    public func countUsers() async throws -> Int {
        try await read { connection in
            let rows = try await connection.query("SELECT count(*) FROM users", logger: logger).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    public func passwordHash(userID: Int64) async throws -> String? {
        try await read { connection in
            try await connection.query("SELECT password_hash FROM users WHERE id = \(userID)", logger: logger)
                .collect().first?.decode(String.self)
        }
    }

    /// API keys survive a password change: they are separate credentials, revoked one by one.
    public func setPasswordHash(userID: Int64, passwordHash: String, keepingSession: String?) async throws {
        try await write { connection in
            let updated = try await connection.query(
                "UPDATE users SET password_hash = \(passwordHash) WHERE id = \(userID) RETURNING id", logger: logger
            ).collect()
            guard !updated.isEmpty else { throw StoreError.notFound("user \(userID)") }
            try await connection.query(
                "DELETE FROM sessions WHERE user_id = \(userID) AND token_hash IS DISTINCT FROM \(keepingSession)",
                logger: logger
            )
        }
    }

    public func createAPIKey(userID: Int64, name: String, keyHash: String, prefix: String, now: Date) async throws -> APIKeyRecord {
        try await write { connection in
            try await Self.requireUser(connection, id: userID, logger: logger)
            let rows = try await connection.query("""
                INSERT INTO api_keys (user_id, name, key_hash, prefix, created_at)
                VALUES (\(userID), \(name), \(keyHash), \(prefix), \(now.timeIntervalSince1970))
                RETURNING id, user_id, name, prefix, created_at, last_used_at, revoked_at
                """, logger: logger).collect()
            guard let row = rows.first else { throw StoreError.corrupt("API key insert returned no row") }
            return try Self.apiKey(row)
        }
    }

    /// Oldest first.
    public func apiKeys(userID: Int64?) async throws -> [APIKeyRecord] {
        try await read { connection in
            let query: PostgresQuery = if let userID {
                "SELECT id, user_id, name, prefix, created_at, last_used_at, revoked_at FROM api_keys WHERE user_id = \(userID) ORDER BY id"
            } else {
                "SELECT id, user_id, name, prefix, created_at, last_used_at, revoked_at FROM api_keys ORDER BY id"
            }
            return try await connection.query(query, logger: logger).collect().map(Self.apiKey)
        }
    }

    /// Revoking twice keeps the first revocation time.
    public func revokeAPIKey(id: Int64, now: Date) async throws {
        try await write { connection in
            let updated = try await connection.query(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(now.timeIntervalSince1970)) WHERE id = \(id) RETURNING id",
                logger: logger
            ).collect()
            guard !updated.isEmpty else { throw StoreError.notFound("API key \(id)") }
        }
    }

    /// A read on the hot path; the write that refreshes `lastUsedAt` happens only when the
    /// stored value is a minute old or more.
    public func authenticate(apiKeyHash: String, now: Date) async throws -> (User, APIKeyRecord)? {
        let nowSeconds = now.timeIntervalSince1970
        let found: (User, APIKeyRecord)? = try await read { connection in
            let rows = try await connection.query("""
                SELECT k.id, k.user_id, k.name, k.prefix, k.created_at, k.last_used_at, k.revoked_at,
                       u.id, u.name, u.role, u.created_at
                FROM api_keys k JOIN users u ON u.id = k.user_id
                WHERE k.key_hash = \(apiKeyHash) AND k.revoked_at IS NULL
                """, logger: logger).collect()
            guard let row = rows.first else { return nil }
            let (keyID, userID, name, prefix, created, lastUsed, revoked, uid, userName, role, userCreated) = try row.decode(
                (Int64, Int64, String, String, Double, Double?, Double?, Int64, String, String, Double).self
            )
            let record = APIKeyRecord(
                id: keyID, userID: userID, name: name, prefix: prefix, createdAt: Date(timeIntervalSince1970: created),
                lastUsedAt: lastUsed.map(Date.init(timeIntervalSince1970:)), revokedAt: revoked.map(Date.init(timeIntervalSince1970:))
            )
            return (try Self.user(id: uid, name: userName, role: role, createdAt: userCreated), record)
        }
        guard let (user, record) = found else { return nil }
        if let lastUsed = record.lastUsedAt, nowSeconds - lastUsed.timeIntervalSince1970 < Self.lastUsedGranularity {
            return (user, record)
        }
        let refreshed: APIKeyRecord? = try await write { connection in
            // Revoked (or deleted) between the read and the write: the key no longer works.
            try await connection.query("""
                UPDATE api_keys SET last_used_at = \(nowSeconds) WHERE id = \(record.id) AND revoked_at IS NULL
                RETURNING id, user_id, name, prefix, created_at, last_used_at, revoked_at
                """, logger: logger).collect().first.map(Self.apiKey)
        }
        return refreshed.map { (user, $0) }
    }

    public func createSession(userID: Int64, tokenHash: String, expiresAt: Date, now: Date) async throws {
        try await write { connection in
            try await Self.requireUser(connection, id: userID, logger: logger)
            try await connection.query("""
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
                VALUES (\(tokenHash), \(userID), \(now.timeIntervalSince1970), \(expiresAt.timeIntervalSince1970))
                """, logger: logger)
        }
    }

    public func authenticate(sessionTokenHash: String, now: Date) async throws -> User? {
        try await read { connection in
            try await connection.query("""
                SELECT u.id, u.name, u.role, u.created_at FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.token_hash = \(sessionTokenHash) AND s.expires_at > \(now.timeIntervalSince1970)
                """, logger: logger).collect().first.map(Self.user)
        }
    }

    /// Deleting a session that does not exist is not an error (logging out twice is fine).
    public func deleteSession(tokenHash: String) async throws {
        try await write { connection in
            _ = try await connection.query("DELETE FROM sessions WHERE token_hash = \(tokenHash)", logger: logger)
        }
    }

    public func deleteExpiredSessions(now: Date) async throws -> Int {
        try await write { connection in
            try await connection.query(
                "DELETE FROM sessions WHERE expires_at <= \(now.timeIntervalSince1970) RETURNING token_hash", logger: logger
            ).collect().count
        }
    }

    // MARK: - Helpers

    /// The same fold as SQLite's store (NFC, then Unicode lowercase), computed in Swift so both
    /// stores agree on which names collide whatever the server's collation.
    static func nameKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }

    static func requireUser(_ connection: PostgresConnection, id: Int64, logger: Logger) async throws {
        let rows = try await connection.query("SELECT 1 FROM users WHERE id = \(id) FOR SHARE", logger: logger).collect()
        guard !rows.isEmpty else { throw StoreError.notFound("user \(id)") }
    }

    /// A row of `id, name, role, created_at`.
    static func user(_ row: PostgresRow) throws -> User {
        let (id, name, role, createdAt) = try row.decode((Int64, String, String, Double).self)
        return try user(id: id, name: name, role: role, createdAt: createdAt)
    }

    static func user(id: Int64, name: String, role: String, createdAt: Double) throws -> User {
        guard let role = UserRole(rawValue: role) else { throw StoreError.corrupt("user \(id) role has unknown value \(role)") }
        return User(id: id, name: name, role: role, createdAt: Date(timeIntervalSince1970: createdAt))
    }

    /// A row of `id, user_id, name, prefix, created_at, last_used_at, revoked_at`.
    static func apiKey(_ row: PostgresRow) throws -> APIKeyRecord {
        let (id, userID, name, prefix, created, lastUsed, revoked) = try row.decode(
            (Int64, Int64, String, String, Double, Double?, Double?).self
        )
        return APIKeyRecord(
            id: id, userID: userID, name: name, prefix: prefix, createdAt: Date(timeIntervalSince1970: created),
            lastUsedAt: lastUsed.map(Date.init(timeIntervalSince1970:)), revokedAt: revoked.map(Date.init(timeIntervalSince1970:))
        )
    }
}
