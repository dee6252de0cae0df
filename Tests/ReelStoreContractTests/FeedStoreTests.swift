import Foundation
import ReelModels
import ReelRank
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): the same positions must walk the same
/// epochs with the same guarantees.
@Suite("FeedStore on SQLite and PostgreSQL")
struct FeedStoreTests {
    @Test("each epoch serves every matching ready post exactly once; the next epoch reorders them",
          arguments: StoreBackend.allCases, [0, 1, 2, 7, 50, 333])
    func epochsAreExactPermutations(backend: StoreBackend, size: Int) async throws {
        try await withStore(backend) { (store) async throws in
            var rng = SplitMix(state: UInt64(size) &* 7919 &+ 1)
            let library = try await makeLibrary(size: size, rng: &rng, in: store)
            let limits = [1, 2, 3, 7, 10, 25, 64, 500]
            var filters = [FeedFilter()]
            for _ in 0..<(size > 100 ? 6 : 12) { filters.append(randomFilter(using: &rng)) }
            for filter in filters {
                let expected = library.expected(filter)
                let limit = limits.randomElement(using: &rng)!
                let seed = rng.next()
                let count = try await library.store.countFeed(userID: library.viewer.id, filter: filter)
                #expect(count == expected.count, "count for \(filter)")

                let first = try await walkEpoch(library, filter: filter, from: .start(seed: seed), limit: limit)
                #expect(first.ids.count == expected.count, "epoch 0 of \(filter) with pages of \(limit)")
                #expect(Set(first.ids) == expected, "epoch 0 of \(filter) with pages of \(limit)")
                guard let next = first.next else {
                    #expect(expected.isEmpty)
                    continue
                }
                #expect(next == FeedPosition(seed: seed, epoch: 1, phase: 0, lastKey: nil, lastID: nil))
                let second = try await walkEpoch(library, filter: filter, from: next, limit: limit)
                #expect(second.ids.count == expected.count && Set(second.ids) == expected, "epoch 1 of \(filter)")
                if expected.count >= 7 { #expect(second.ids != first.ids, "epoch 1 repeats epoch 0's order") }
                #expect(second.next?.epoch == 2)
            }
        }
    }

    @Test("the order depends on the seed, and a page size does not change the order", arguments: StoreBackend.allCases)
    func orderIsAFunctionOfSeedAndEpoch(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            var rng = SplitMix(state: 42)
            let library = try await makeLibrary(size: 50, rng: &rng, in: store)
            let a = try await walkEpoch(library, filter: .all, from: .start(seed: 1), limit: 7).ids
            let b = try await walkEpoch(library, filter: .all, from: .start(seed: 1), limit: 50).ids
            let c = try await walkEpoch(library, filter: .all, from: .start(seed: 2), limit: 7).ids
            #expect(a == b)
            #expect(a != c)
            #expect(a.count == 50)
        }
    }

    @Test("deleting and adding posts mid-walk never repeats a post within the epoch", arguments: StoreBackend.allCases)
    func mutationsMidWalk(backend: StoreBackend) async throws {
        for round in 0..<8 {
            try await withStore(backend) { (store) async throws in
                var rng = SplitMix(state: 1000 + UInt64(round))
                let library = try await makeLibrary(size: 50, rng: &rng, in: store)
                var deleted: Set<Int64> = []
                var added: Set<Int64> = []
                var served: [Int64] = []
                let walk = try await walkEpoch(library, filter: .all, from: .start(seed: rng.next()), limit: 5) { page in
                    guard page <= 4 else { return }
                    // Delete two posts (served or not) and add one each time.
                    let candidates = library.posts.values.filter { $0.ready && !deleted.contains($0.id) }.map(\.id).sorted()
                    for _ in 0..<2 {
                        let victim = candidates.randomElement(using: &rng)!
                        try await store.deletePost(id: victim)
                        deleted.insert(victim)
                    }
                    let (post, _) = try await store.insertPost(newPost(folderName: "late", contentHash: "late\(round)-\(page)"), maxAttempts: 1, now: t0)
                    try await store.publish(postID: post.id, media: sampleMedia, key: nil)
                    added.insert(post.id)
                }
                served = walk.ids
                #expect(Set(served).count == served.count, "a post was served twice in one epoch")
                let survivors = Set(library.posts.values.filter(\.ready).map(\.id)).subtracting(deleted)
                let unseenSurvivors = survivors.subtracting(served)
                #expect(unseenSurvivors.isEmpty, "posts that stayed ready were skipped: \(unseenSurvivors)")
                #expect(Set(served).isSubset(of: survivors.union(added).union(deleted)))
                // Everything present now is served exactly once by the next epoch.
                let next = try #require(walk.next)
                let after = try await walkEpoch(library, filter: .all, from: next, limit: 5)
                #expect(Set(after.ids) == survivors.union(added) && after.ids.count == survivors.count + added.count)
            }
        }
    }

    @Test("a filter that matches nothing gives an empty page and no next position", arguments: StoreBackend.allCases)
    func emptyFeeds(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            var rng = SplitMix(state: 7)
            let library = try await makeLibrary(size: 7, rng: &rng, in: store)
            for filter in [FeedFilter(tags: ["no-such-tag"]), FeedFilter(minRating: 6), FeedFilter(tags: ["cat"], excludeTags: ["CAT"])] {
                let page = try await library.store.feedPage(userID: library.viewer.id, filter: filter, position: .start(seed: 3), limit: 10)
                #expect(page.items.isEmpty && page.next == nil)
                #expect(try await library.store.countFeed(userID: library.viewer.id, filter: filter) == 0)
            }
            // A position past the last post (everything after it deleted) moves on to the next epoch.
            let all = try await library.store.feedPage(userID: library.viewer.id, filter: .all, position: .start(seed: 3), limit: 500)
            let last = try #require(all.items.last)
            // The end of phase 1 is the highest key when ascending, the lowest when descending.
            let endKey = FeedShuffle.order(seed: 3, epoch: 0).descending ? Int64.min : Int64.max
            let stale = try await library.store.feedPage(
                userID: library.viewer.id, filter: .all,
                position: FeedPosition(seed: 3, epoch: 0, phase: 1, lastKey: endKey, lastID: last.post.id), limit: 3
            )
            #expect(stale.items.count == 3)
            #expect(stale.next?.epoch == 1)
        }
    }

    @Test("malformed positions and page sizes are invalid", arguments: StoreBackend.allCases)
    func invalidRequests(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            for (position, limit) in [
                (FeedPosition.start(seed: 1), 0), (FeedPosition.start(seed: 1), 501),
                (FeedPosition(seed: 1, epoch: 0, phase: 2, lastKey: nil, lastID: nil), 5),
                (FeedPosition(seed: 1, epoch: 0, phase: 0, lastKey: 5, lastID: nil), 5),
            ] {
                await #expect(throws: StoreError.self) {
                    _ = try await store.feedPage(userID: 1, filter: .all, position: position, limit: limit)
                }
            }
        }
    }

    @Test("consecutive epochs use different key columns; orders are pure functions")
    func epochOrders() {
        for seed in [0, 1, 99, UInt64.max] {
            for epoch in [-1, 0, 1, 2, 1000, Int.max - 1] {
                let order = FeedShuffle.order(seed: seed, epoch: epoch)
                #expect(order == FeedShuffle.order(seed: seed, epoch: epoch))
                #expect(order.start >= 0 && (0..<FeedShuffle.keyCount).contains(order.column))
                #expect(order.column != FeedShuffle.order(seed: seed, epoch: epoch &+ 1).column)
            }
        }
    }
}
