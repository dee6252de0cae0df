import Foundation
import ReelModels

/// An API key as the owner sees it in a list. The key itself is never stored, only its hash,
/// so a stolen database does not hand out working keys; `prefix` lets a person tell keys apart.
public struct APIKeyRecord: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var userID: Int64
    public var name: String
    /// The first 8 characters of the key, for display.
    public var prefix: String
    public var createdAt: Date
    /// Refreshed at most once a minute, so authenticating stays a read on the hot path.
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    public init(id: Int64, userID: Int64, name: String, prefix: String, createdAt: Date, lastUsedAt: Date?, revokedAt: Date?) {
        self.id = id
        self.userID = userID
        self.name = name
        self.prefix = prefix
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// Accounts, API keys and login sessions.
///
/// Every secret arrives already hashed (password hashes from the server's hasher, keys and
/// session tokens as hex SHA-256): the store never sees a credential it could leak.
public protocol AccountStore: Sendable {
    /// A name taken by another user, ignoring case, is `StoreError.conflict`.
    func createUser(name: String, role: UserRole, passwordHash: String, now: Date) async throws -> User
    func user(id: Int64) async throws -> User?
    /// Case-insensitive.
    func user(name: String) async throws -> User?
    func users() async throws -> [User]
    func countUsers() async throws -> Int
    func passwordHash(userID: Int64) async throws -> String?
    /// Also deletes the user's sessions but `keepingSession` (the hash of the token of the
    /// browser that made the change, if any), so a changed password logs out every other browser.
    func setPasswordHash(userID: Int64, passwordHash: String, keepingSession: String?) async throws

    /// `keyHash` is the hex SHA-256 of the key.
    func createAPIKey(userID: Int64, name: String, keyHash: String, prefix: String, now: Date) async throws -> APIKeyRecord
    /// All keys when `userID` is nil.
    func apiKeys(userID: Int64?) async throws -> [APIKeyRecord]
    /// `StoreError.notFound` if there is no such key.
    func revokeAPIKey(id: Int64, now: Date) async throws
    /// Nil if the key is unknown or revoked. Updates `lastUsedAt` at most once a minute.
    func authenticate(apiKeyHash: String, now: Date) async throws -> (User, APIKeyRecord)?

    func createSession(userID: Int64, tokenHash: String, expiresAt: Date, now: Date) async throws
    /// Nil if the session is unknown or expired.
    func authenticate(sessionTokenHash: String, now: Date) async throws -> User?
    func deleteSession(tokenHash: String) async throws
    /// Returns how many were deleted.
    func deleteExpiredSessions(now: Date) async throws -> Int
}

extension AccountStore {
    /// Changes the password and ends every session of the user.
    public func setPasswordHash(userID: Int64, passwordHash: String) async throws {
        try await setPasswordHash(userID: userID, passwordHash: passwordHash, keepingSession: nil)
    }
}
