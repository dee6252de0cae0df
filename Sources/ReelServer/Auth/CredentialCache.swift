import Foundation
import ReelCache
import ReelModels
import ReelStore

/// Remembers recently verified credentials for a few seconds, so a client streaming feed pages
/// does not cost a database read per request just to say who it is. A revoked key or ended
/// session keeps working for at most `ttl` on this node; 0 turns the cache off.
actor CredentialCache {
    private let entries: BoundedCache<String, Identity, NoRevision>

    init(ttl: TimeInterval) {
        entries = BoundedCache(capacity: 10_000, lifetime: ttl)
    }

    func lookup(_ hash: String, now: Date) -> Identity? {
        entries.value(for: hash, now: now)
    }

    func store(_ identity: Identity, for hash: String, now: Date) {
        entries.insert(identity, for: hash, now: now)
    }

    func forget(_ hash: String) {
        entries.remove(hash)
    }

    /// Forgets every remembered credential whose identity `matches`, but the one under `keeping`:
    /// a revoked key or a signed-out session stops working here at once, not after `ttl`.
    func forget(keeping: String? = nil, where matches: (Identity) -> Bool) {
        entries.removeAll { key, identity in key != keeping && matches(identity) }
    }
}
