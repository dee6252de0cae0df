import Foundation
import ReelModels

/// Disabling an account, the way `passwd -l` locks a Unix one: its password hash is kept behind
/// a marker no bcrypt hash starts with, so no password verifies against it and enabling it again
/// gives back the password it had. Disabling also ends the account's sessions (as any password
/// change does) and revokes its API keys; a media URL issued to it before stops playing once a
/// node notices (the media check's fingerprint covers the password hash).
public enum AccountLock {
    static let marker = "!"

    /// Whether a stored password hash is one of a disabled account.
    public static func isLocked(_ passwordHash: String) -> Bool { passwordHash.hasPrefix(marker) }
}

extension AccountStore {
    /// Whether the account is disabled (false when there is no such user).
    public func isDisabled(userID: Int64) async throws -> Bool {
        try await passwordHash(userID: userID).map(AccountLock.isLocked) ?? false
    }

    /// Locks the password, ends every session and revokes every key of the user. Disabling a
    /// disabled account changes nothing but revokes keys minted since (there can be none through
    /// the API: the account cannot sign in). `StoreError.notFound` when there is no such user.
    public func disableUser(id: Int64, now: Date) async throws {
        guard let hash = try await passwordHash(userID: id) else { throw StoreError.notFound("user \(id)") }
        if !AccountLock.isLocked(hash) {
            try await setPasswordHash(userID: id, passwordHash: AccountLock.marker + hash)
        }
        for key in try await apiKeys(userID: id) where key.revokedAt == nil {
            try await revokeAPIKey(id: key.id, now: now)
        }
    }

    /// Unlocks the password the account had; its revoked keys stay revoked (mint new ones).
    public func enableUser(id: Int64) async throws {
        guard let hash = try await passwordHash(userID: id) else { throw StoreError.notFound("user \(id)") }
        guard AccountLock.isLocked(hash) else { return }
        try await setPasswordHash(userID: id, passwordHash: String(hash.dropFirst(AccountLock.marker.count)))
    }
}
