import Crypto
import Foundation
import ReelCache
import ReelModels
import ReelStore

/// Who may still use a media URL: the revocation check behind every `/media/` request.
///
/// A media token names its viewer (`MediaViewer`): the user, the API key they used and a
/// fingerprint of what decides what they may see: their role, their password hash (a new
/// password ends URLs issued before it), the libraries they may see, and whether the key is
/// still live. A token is honoured only while the viewer's fingerprint, worked out again now,
/// is the one it carries, and while the post's library is one they may see. Each viewer's
/// answer is remembered for `lifetime` seconds per node, so revoking a grant or a key, changing
/// a password, disabling the account or removing a library ends every URL already issued within that time (the edge
/// adds at most `MediaAuthController.answerSeconds`): well inside a minute, where before it was
/// the token's expiry, up to 75 minutes.
final class MediaAccess: Sendable {
    struct State: Sendable, Equatable {
        let fingerprint: UInt32
        let scope: LibraryScope
    }

    private struct Key: Hashable, Sendable {
        let userID: Int64
        let keyID: Int64?
    }

    private let accounts: any AccountStore
    private let grants: any LibraryGrantStore
    private let states: BoundedCache<Key, State, NoRevision>

    init(accounts: any AccountStore, grants: any LibraryGrantStore, lifetime: TimeInterval) {
        self.accounts = accounts
        self.grants = grants
        states = BoundedCache(capacity: 10_000, lifetime: lifetime)
    }

    /// The viewer a URL issued now to `identity` names.
    func viewer(for identity: Identity, now: Date) async throws -> MediaViewer? {
        let keyID: Int64? = if case .apiKey(let id) = identity.credential { id } else { nil }
        guard let state = try await state(userID: identity.user.id, keyID: keyID, now: now) else { return nil }
        return MediaViewer(userID: identity.user.id, keyID: keyID, fingerprint: state.fingerprint)
    }

    /// Whether `viewer` may still see a post of `libraryID`.
    func allows(_ viewer: MediaViewer, libraryID: Int64, now: Date) async throws -> Bool {
        guard let state = try await state(userID: viewer.userID, keyID: viewer.keyID, now: now) else { return false }
        return state.fingerprint == viewer.fingerprint && state.scope.contains(libraryID)
    }

    /// nil: no such user, a disabled one, or the key is revoked or not theirs.
    private func state(userID: Int64, keyID: Int64?, now: Date) async throws -> State? {
        let key = Key(userID: userID, keyID: keyID)
        if let known = states.value(for: key, revision: NoRevision(), now: now) { return known }
        guard let user = try await accounts.user(id: userID) else { return nil }
        if let keyID {
            let live = try await accounts.apiKeys(userID: userID).contains { $0.id == keyID && $0.revokedAt == nil }
            guard live else { return nil }
        }
        let passwordHash = try await accounts.passwordHash(userID: userID) ?? ""
        guard !AccountLock.isLocked(passwordHash) else { return nil } // disabled: no viewer at all
        let scope = try await grants.scope(userID: userID, requested: nil)
        let state = State(fingerprint: Self.fingerprint(role: user.role, passwordHash: passwordHash, scope: scope), scope: scope)
        states.insert(state, for: key, revision: NoRevision(), now: now)
        return state
    }

    static func fingerprint(role: UserRole, passwordHash: String, scope: LibraryScope) -> UInt32 {
        let libraries = scope.libraryIDs.map { $0.sorted().map(String.init).joined(separator: ",") } ?? "all"
        let digest = SHA256.hash(data: Data("\(role.rawValue)|\(passwordHash)|\(libraries)".utf8))
        return digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
