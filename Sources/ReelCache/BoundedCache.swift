import Foundation

/// The one in-memory cache of the project: bounded in size, optionally bounded in time, and
/// optionally checked against what an entry was made from.
///
/// - **Capacity**: when a new key would pass `capacity`, expired entries go first; if that frees
///   nothing, the cache starts over. Starting over keeps the hot set (whatever is being asked for
///   right now comes straight back) without any bookkeeping per hit, which an LRU list would cost.
/// - **Lifetime**: an entry older than `lifetime` is a miss (and is dropped). Nil: entries stay
///   until capacity or `remove` drops them. Time is the caller's `now`, so tests move it.
/// - **Revision check**: a lookup may name what the entry must have been made from (a store
///   revision, a token window, the exact source text). A mismatch is a miss; the caller then
///   stores the fresh value over it. Caches keyed this way never need invalidating.
///
/// Safe from any thread or task: one lock, held only to read or write the table. Values are kept
/// in a box, so a hit copies a reference under the lock, never a large value.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable, Revision: Equatable & Sendable>: @unchecked Sendable {
    private final class Slot {
        let value: Value
        let revision: Revision
        /// When the entry stops being served; nil: never by time.
        let expires: Date?

        init(value: Value, revision: Revision, expires: Date?) {
            self.value = value
            self.revision = revision
            self.expires = expires
        }

        func isLive(at now: Date) -> Bool { expires.map { now < $0 } ?? true }
    }

    public let capacity: Int
    /// How long an entry is served after it was stored; nil: no limit. Zero turns the cache off.
    public let lifetime: TimeInterval?
    private let lock = NSLock()
    private var slots: [Key: Slot] = [:]

    public init(capacity: Int, lifetime: TimeInterval? = nil) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The value stored for `key` at `revision`, if it is still live.
    public func value(for key: Key, revision: Revision, now: Date = Date()) -> Value? {
        guard let slot = lock.withLock({ slots[key] }) else { return nil }
        guard slot.isLive(at: now) else {
            lock.withLock { if slots[key] === slot { slots[key] = nil } }
            return nil
        }
        return slot.revision == revision ? slot.value : nil
    }

    /// Stores `value` for `key`, made from `revision`, replacing whatever was there.
    public func insert(_ value: Value, for key: Key, revision: Revision, now: Date = Date()) {
        if let lifetime, lifetime <= 0 { return }
        let slot = Slot(value: value, revision: revision, expires: lifetime.map { now.addingTimeInterval($0) })
        // What making room drops is released after the lock: freeing thousands of entries
        // under it stalled every other reader (a feed on 1M posts, where every page misses,
        // started over every few hundred requests and each time its p99 jumped).
        _ = lock.withLock { () -> [Key: Slot] in
            var dropped: [Key: Slot] = [:]
            if slots[key] == nil, slots.count >= capacity { dropped = makeRoom(now: now) }
            slots[key] = slot
            return dropped
        }
    }

    /// The value for `key` at `revision`, else `make()`'s, stored. `make` runs outside the lock,
    /// so two callers missing together may both make it; the last one stored wins.
    public func value(for key: Key, revision: Revision, now: Date = Date(), make: () throws -> Value) rethrows -> Value {
        if let hit = value(for: key, revision: revision, now: now) { return hit }
        let value = try make()
        insert(value, for: key, revision: revision, now: now)
        return value
    }

    public func remove(_ key: Key) {
        lock.withLock { slots[key] = nil }
    }

    /// Drops every entry `matches` picks (say, every credential of a user who signed out).
    public func removeAll(where matches: (Key, Value) -> Bool) {
        lock.withLock { slots = slots.filter { !matches($0.key, $0.value.value) } }
    }

    public func removeAll() {
        lock.withLock { slots.removeAll(keepingCapacity: true) }
    }

    /// Entries held, live or not yet dropped.
    public var count: Int { lock.withLock { slots.count } }

    /// Under the lock: drop the expired entries, or everything when none had expired. Returns
    /// the table that held them, for the caller to release outside the lock.
    private func makeRoom(now: Date) -> [Key: Slot] {
        if lifetime != nil {
            let live = slots.filter { $0.value.isLive(at: now) }
            if live.count < capacity {
                let dropped = slots
                slots = live
                return dropped
            }
        }
        var dropped: [Key: Slot] = Dictionary(minimumCapacity: capacity)
        swap(&dropped, &slots)
        return dropped
    }
}

/// What a cache needs when its entries are checked by time (or by nothing) alone.
public struct NoRevision: Equatable, Sendable {
    public init() {}
}

extension BoundedCache where Revision == NoRevision {
    public func value(for key: Key, now: Date = Date()) -> Value? {
        value(for: key, revision: NoRevision(), now: now)
    }

    public func insert(_ value: Value, for key: Key, now: Date = Date()) {
        insert(value, for: key, revision: NoRevision(), now: now)
    }

    public func value(for key: Key, now: Date = Date(), make: () throws -> Value) rethrows -> Value {
        try value(for: key, revision: NoRevision(), now: now, make: make)
    }
}
