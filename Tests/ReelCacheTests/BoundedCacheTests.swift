import Foundation
@testable import ReelCache
import Testing

@Suite struct BoundedCacheTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    @Test func aHitNeedsTheRevisionItWasMadeFrom() {
        let cache = BoundedCache<Int, String, Int64>(capacity: 4)
        cache.insert("v1", for: 1, revision: 1)
        #expect(cache.value(for: 1, revision: 1) == "v1")
        #expect(cache.value(for: 1, revision: 2) == nil)
        cache.insert("v2", for: 1, revision: 2)
        #expect(cache.value(for: 1, revision: 2) == "v2")
        #expect(cache.value(for: 1, revision: 1) == nil)
        #expect(cache.count == 1)
    }

    @Test func entriesExpireAfterTheirLifetime() {
        let cache = BoundedCache<String, Int, NoRevision>(capacity: 4, lifetime: 3)
        cache.insert(7, for: "a", now: start)
        #expect(cache.value(for: "a", now: start.addingTimeInterval(2.9)) == 7)
        #expect(cache.value(for: "a", now: start.addingTimeInterval(3)) == nil)
        // The expired entry is dropped on the miss.
        #expect(cache.count == 0)
    }

    @Test func aZeroLifetimeStoresNothing() {
        let cache = BoundedCache<String, Int, NoRevision>(capacity: 4, lifetime: 0)
        cache.insert(1, for: "a", now: start)
        #expect(cache.value(for: "a", now: start) == nil)
        #expect(cache.count == 0)
    }

    @Test func aFullCacheDropsExpiredEntriesFirst() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 3, lifetime: 10)
        cache.insert(1, for: 1, now: start)
        cache.insert(2, for: 2, now: start.addingTimeInterval(5))
        cache.insert(3, for: 3, now: start.addingTimeInterval(6))
        // At t = 11 entry 1 has expired: it makes room, and the fresh ones stay.
        cache.insert(4, for: 4, now: start.addingTimeInterval(11))
        #expect(cache.count == 3)
        #expect(cache.value(for: 2, now: start.addingTimeInterval(11)) == 2)
        #expect(cache.value(for: 4, now: start.addingTimeInterval(11)) == 4)
    }

    @Test func aFullCacheEvictsTheOldestEntryNotReadSince() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 2)
        cache.insert(1, for: 1)
        cache.insert(2, for: 2)
        // Replacing a held key never evicts.
        cache.insert(20, for: 2)
        #expect(cache.count == 2)
        cache.insert(3, for: 3)
        #expect(cache.count == 2)
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 2) == 20)
        #expect(cache.value(for: 3) == 3)
    }

    @Test func anEntryReadSinceItWasStoredGetsASecondChance() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 3)
        for key in 1...3 { cache.insert(key, for: key) }
        #expect(cache.value(for: 1) == 1)
        cache.insert(4, for: 4)
        // 1 was read: spared; 2, the next oldest, went.
        #expect(cache.value(for: 2) == nil)
        #expect(cache.value(for: 1) == 1)
        #expect(cache.value(for: 3) == 3)
        #expect(cache.value(for: 4) == 4)
    }

    /// When every entry was read, one insert spares only a few before evicting, instead of
    /// sweeping the whole table.
    @Test func anInsertSparesAtMostAFewReadEntries() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 20)
        for key in 1...20 { cache.insert(key, for: key) }
        for key in 1...20 { _ = cache.value(for: key) }
        cache.insert(21, for: 21)
        let spared = BoundedCache<Int, Int, NoRevision>.maxSpared
        #expect(cache.value(for: spared + 1) == nil)
        #expect((1...20).filter { cache.value(for: $0) != nil }.count == 19)
    }

    @Test func anExpiredEntryIsNotSparedForHavingBeenRead() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 2, lifetime: 10)
        cache.insert(1, for: 1, now: start)
        cache.insert(2, for: 2, now: start.addingTimeInterval(5))
        #expect(cache.value(for: 1, now: start.addingTimeInterval(1)) == 1)
        cache.insert(3, for: 3, now: start.addingTimeInterval(12))
        #expect(cache.value(for: 2, now: start.addingTimeInterval(12)) == 2)
        #expect(cache.value(for: 3, now: start.addingTimeInterval(12)) == 3)
        #expect(cache.count == 2)
    }

    /// A full cache never empties at once: each new key evicts one entry, so no single insert
    /// pays for releasing the whole table.
    @Test func eachNewKeyEvictsOneEntryAndTheCacheStaysFull() {
        let cache = BoundedCache<Int, [Int], NoRevision>(capacity: 100)
        for key in 0..<1_000 {
            cache.insert([key], for: key)
            #expect(cache.count == min(key + 1, 100))
        }
        // The last hundred stored are the ones held.
        #expect((900..<1_000).allSatisfy { cache.value(for: $0) == [$0] })
    }

    /// Keys dropped without an eviction (removed, expired on a lookup) leave stale places in the
    /// eviction order; they never let the cache pass its capacity, and never pile up.
    @Test func churnOfRemovedAndExpiredKeysKeepsTheOrderBounded() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 8, lifetime: 1)
        var now = start
        for round in 0..<10_000 {
            let key = round % 20
            cache.insert(round, for: key, now: now)
            if round % 3 == 0 { cache.remove((round + 7) % 20) }
            if round % 5 == 0 { now = now.addingTimeInterval(2); _ = cache.value(for: key, now: now) }
            #expect(cache.count <= 8)
            #expect(cache.orderCount <= 2 * 16 + 1)
        }
    }

    @Test func makeRunsOnlyOnAMiss() {
        let cache = BoundedCache<Int, String, Int64>(capacity: 4)
        var made = 0
        let make = { () -> String in made += 1; return "made \(made)" }
        #expect(cache.value(for: 1, revision: 5, make: make) == "made 1")
        #expect(cache.value(for: 1, revision: 5, make: make) == "made 1")
        #expect(cache.value(for: 1, revision: 6, make: make) == "made 2")
        #expect(made == 2)
    }

    @Test func removeAllWhereDropsOnlyTheMatches() {
        let cache = BoundedCache<String, Int, NoRevision>(capacity: 8)
        for (key, user) in [("k1", 1), ("k2", 2), ("k3", 1)] { cache.insert(user, for: key) }
        cache.removeAll { key, user in user == 1 && key != "k3" }
        #expect(cache.value(for: "k1") == nil)
        #expect(cache.value(for: "k2") == 2)
        #expect(cache.value(for: "k3") == 1)
        cache.remove("k2")
        #expect(cache.count == 1)
    }

    @Test func concurrentUseKeepsTheBound() async {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 64)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<2_000 {
                        let key = (task * 7_919 + index) % 500
                        if cache.value(for: key) == nil { cache.insert(key, for: key) }
                    }
                }
            }
        }
        #expect(cache.count <= 64)
    }
}
