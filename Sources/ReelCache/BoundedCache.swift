import Foundation

/// The one in-memory cache of the project: bounded in size, optionally bounded in time, and
/// optionally checked against what an entry was made from.
///
/// - **Capacity**: a new key that would pass `capacity` evicts one entry first, by the clock
///   ("second chance") policy: the oldest entry goes, unless it was read since it was stored
///   and is still live, in which case it is kept once more and the next oldest is tried (up to
///   `maxSpared` of them). So the hot set stays, entries that expired go before live ones (every
///   entry of a cache has the same lifetime, so the oldest expire first), and no insert frees
///   more than one entry. A full cache used to start over instead: on a feed of 1M posts, where
///   every page misses, the request that emptied 8,192 decoded posts spent 5–16 ms freeing them,
///   every few hundred requests, and that was the feed's whole tail when unloaded.
/// - **Lifetime**: an entry older than `lifetime` is a miss (and is dropped). Nil: entries stay
///   until capacity or `remove` drops them. Time is the caller's `now`, so tests move it.
/// - **Revision check**: a lookup may name what the entry must have been made from (a store
///   revision, a token window, the exact source text). A mismatch is a miss; the caller then
///   stores the fresh value over it. Caches keyed this way never need invalidating.
///
/// Safe from any thread or task: one lock, held only to read or write the table. Values are kept
/// in a box, so a hit copies a reference under the lock, never a large value, and what an insert
/// evicts is released after the lock.
///
/// Its hot methods are `@inlinable`, so each cache is specialized in the module that uses it:
/// unspecialized, every lookup from another module looked up the generic metadata of `Slot` and
/// of its dictionary at run time (9 % of the server's samples on a 1M-post feed).
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable, Revision: Equatable & Sendable>: @unchecked Sendable {
    @usableFromInline
    final class Slot {
        @usableFromInline let value: Value
        @usableFromInline let revision: Revision
        /// When the entry stops being served; nil: never by time.
        @usableFromInline let expires: Date?
        /// Read since it was stored or last spared (under the lock).
        @usableFromInline var referenced = false

        @inlinable init(value: Value, revision: Revision, expires: Date?) {
            self.value = value
            self.revision = revision
            self.expires = expires
        }

        @inlinable func isLive(at now: Date) -> Bool { expires.map { now < $0 } ?? true }
    }

    public let capacity: Int
    /// How long an entry is served after it was stored; nil: no limit. Zero turns the cache off.
    public let lifetime: TimeInterval?
    @usableFromInline let lock = NSLock()
    @usableFromInline var slots: [Key: Slot] = [:]
    /// Keys in the order they were stored (or spared): the clock's hand is the front. It may
    /// also hold keys dropped since (removed, expired on a lookup) or held twice (dropped, then
    /// stored again); eviction skips what is no longer held, and `compactIfStale` bounds them.
    @usableFromInline var order = KeyRing<Key>()

    @inlinable public init(capacity: Int, lifetime: TimeInterval? = nil) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The value stored for `key` at `revision`, if it is still live.
    @inlinable public func value(for key: Key, revision: Revision, now: Date = Date()) -> Value? {
        guard let slot = lock.withLock({ () -> Slot? in
            let slot = slots[key]
            slot?.referenced = true
            return slot
        }) else { return nil }
        guard slot.isLive(at: now) else {
            lock.withLock { if slots[key] === slot { slots[key] = nil } }
            return nil
        }
        return slot.revision == revision ? slot.value : nil
    }

    /// Stores `value` for `key`, made from `revision`, replacing whatever was there.
    @inlinable public func insert(_ value: Value, for key: Key, revision: Revision, now: Date = Date()) {
        if let lifetime, lifetime <= 0 { return }
        let slot = Slot(value: value, revision: revision, expires: lifetime.map { now.addingTimeInterval($0) })
        _ = lock.withLock { () -> Slot? in
            guard slots.updateValue(slot, forKey: key) == nil else { return nil }
            order.append(key)
            let evicted = slots.count > capacity ? evictOne(now: now) : nil
            compactIfStale()
            return evicted
        }
    }

    /// The value for `key` at `revision`, else `make()`'s, stored. `make` runs outside the lock,
    /// so two callers missing together may both make it; the last one stored wins.
    @inlinable public func value(for key: Key, revision: Revision, now: Date = Date(), make: () throws -> Value) rethrows -> Value {
        if let hit = value(for: key, revision: revision, now: now) { return hit }
        let value = try make()
        insert(value, for: key, revision: revision, now: now)
        return value
    }

    @inlinable public func remove(_ key: Key) {
        lock.withLock {
            slots[key] = nil
            compactIfStale()
        }
    }

    /// Drops every entry `matches` picks (say, every credential of a user who signed out).
    public func removeAll(where matches: (Key, Value) -> Bool) {
        lock.withLock {
            slots = slots.filter { !matches($0.key, $0.value.value) }
            compactIfStale()
        }
    }

    public func removeAll() {
        lock.withLock {
            slots.removeAll(keepingCapacity: true)
            order.removeAll()
        }
    }

    /// Entries held, live or not yet dropped.
    public var count: Int { lock.withLock { slots.count } }

    /// Keys the eviction order holds, stale ones included (for tests of its bound).
    var orderCount: Int { lock.withLock { order.count } }

    /// Under the lock, with one entry too many: evicts one by the clock policy, sparing at most
    /// `maxSpared` read entries on the way (so no insert sweeps the whole table when every entry
    /// was read). Returns the evicted entry, for release after the lock.
    @inlinable func evictOne(now: Date) -> Slot? {
        var spared = 0
        while let key = order.popFirst() {
            guard let index = slots.index(forKey: key) else { continue }
            let slot = slots.values[index]
            if slot.referenced && spared < Self.maxSpared && slot.isLive(at: now) {
                slot.referenced = false
                order.append(key)
                spared += 1
                continue
            }
            slots.remove(at: index)
            return slot
        }
        return nil
    }

    @usableFromInline static var maxSpared: Int { 8 }

    /// Under the lock: when the order holds more than twice the keys the table does (keys
    /// dropped without an eviction: removed, expired on a lookup, stored again), keeps each held
    /// key once. Linear, but only after as many stale keys as live ones, so amortized constant.
    @inlinable func compactIfStale() {
        guard order.count > 2 * max(slots.count, 16) else { return }
        var seen = Set<Key>(minimumCapacity: slots.count)
        order.filter { key in slots[key] != nil && seen.insert(key).inserted }
    }
}

/// What a cache needs when its entries are checked by time (or by nothing) alone.
@frozen public struct NoRevision: Equatable, Sendable {
    @inlinable public init() {}
}

extension BoundedCache where Revision == NoRevision {
    @inlinable public func value(for key: Key, now: Date = Date()) -> Value? {
        value(for: key, revision: NoRevision(), now: now)
    }

    @inlinable public func insert(_ value: Value, for key: Key, now: Date = Date()) {
        insert(value, for: key, revision: NoRevision(), now: now)
    }

    @inlinable public func value(for key: Key, now: Date = Date(), make: () throws -> Value) rethrows -> Value {
        try value(for: key, revision: NoRevision(), now: now, make: make)
    }
}
