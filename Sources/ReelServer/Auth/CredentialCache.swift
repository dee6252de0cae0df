import Foundation
import ReelModels
import ReelStore

/// Remembers recently verified credentials for a few seconds, so a client streaming feed pages
/// does not cost a database read per request just to say who it is. A revoked key or ended
/// session keeps working for at most `ttl` on this node; 0 turns the cache off.
actor CredentialCache {
    private struct Entry {
        var identity: Identity
        var expires: Date
    }

    private var entries: [String: Entry] = [:]
    private let ttl: TimeInterval
    private let capacity = 10_000

    init(ttl: TimeInterval) {
        self.ttl = ttl
    }

    func lookup(_ hash: String, now: Date) -> Identity? {
        guard let entry = entries[hash] else { return nil }
        guard entry.expires > now else {
            entries[hash] = nil
            return nil
        }
        return entry.identity
    }

    func store(_ identity: Identity, for hash: String, now: Date) {
        guard ttl > 0 else { return }
        if entries.count >= capacity { entries = entries.filter { $0.value.expires > now } }
        if entries.count >= capacity { entries.removeAll() }
        entries[hash] = Entry(identity: identity, expires: now.addingTimeInterval(ttl))
    }

    func forget(_ hash: String) {
        entries[hash] = nil
    }

    /// Forgets every remembered credential whose identity `matches`, but the one under `keeping`:
    /// a revoked key or a signed-out session stops working here at once, not after `ttl`.
    func forget(keeping: String? = nil, where matches: (Identity) -> Bool) {
        entries = entries.filter { key, entry in key == keeping || !matches(entry.identity) }
    }
}
