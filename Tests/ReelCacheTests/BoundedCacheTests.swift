import Foundation
import ReelCache
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

    @Test func aFullCacheOfLiveEntriesStartsOver() {
        let cache = BoundedCache<Int, Int, NoRevision>(capacity: 2)
        cache.insert(1, for: 1)
        cache.insert(2, for: 2)
        // Replacing a held key never evicts.
        cache.insert(20, for: 2)
        #expect(cache.count == 2)
        cache.insert(3, for: 3)
        #expect(cache.count == 1)
        #expect(cache.value(for: 3) == 3)
        #expect(cache.value(for: 1) == nil)
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
