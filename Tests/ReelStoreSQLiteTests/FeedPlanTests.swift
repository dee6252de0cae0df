import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing

@Suite("Feed query plans")
struct FeedPlanTests {
    /// A library big enough that SQLite's planner has a real choice to make.
    private func library() async throws -> (SQLiteStore, User) {
        let store = try SQLiteStore.inMemory()
        try store.insertSyntheticPosts(count: 2_000, tagsPerPost: 3, now: t0)
        let (rare, _) = try await store.insertPost(newPost(contentHash: "rare", tags: ["rare-tag"]), maxAttempts: 1, now: t0)
        try await store.publish(postID: rare.id, media: sampleMedia, key: nil)
        let user = try await store.createUser(name: "ana", role: .owner, passwordHash: "x", now: t0)
        return (store, user)
    }

    @Test("the unfiltered feed seeks the shuffle index instead of scanning posts, on every phase and direction")
    func unfilteredUsesShuffleIndex() async throws {
        let (store, user) = try await library()
        for seed in UInt64(0)..<8 {
            for position in [
                FeedPosition.start(seed: seed),
                FeedPosition(seed: seed, epoch: 3, phase: 1, lastKey: 12345, lastID: 7),
            ] {
                let plan = try await store.feedQueryPlan(userID: user.id, filter: .all, position: position, limit: 20)
                let column = FeedShuffle.order(seed: seed, epoch: position.epoch).column
                let text = plan.joined(separator: "\n")
                #expect(plan.contains { $0.hasPrefix("SEARCH p USING INDEX posts_ready_by_shuffle\(column) (") }, "\(text)")
                #expect(!plan.contains { $0.hasPrefix("SCAN p") }, "\(text)")
                #expect(!text.contains("TEMP B-TREE"), "the index must give the order: \(text)")
            }
        }
    }

    @Test("a rare tag starts from the tag's posts; a common one walks the shuffle index")
    func tagFiltersPickTheCheaperDriver() async throws {
        let (store, user) = try await library()
        let rare = try await store.feedQueryPlan(userID: user.id, filter: FeedFilter(tags: ["RARE-TAG"]), position: .start(seed: 1), limit: 20)
        #expect(rare.contains { $0.contains("post_tag_ids") && $0.contains("USING") }, "\(rare)")
        #expect(!rare.contains { $0.hasPrefix("SCAN p") }, "\(rare)")
        let common = try await store.feedQueryPlan(userID: user.id, filter: FeedFilter(tags: ["topic0"]), position: .start(seed: 1), limit: 20)
        #expect(common.contains { $0.contains("posts_ready_by_shuffle") }, "\(common)")
        let page = try await store.feedPage(userID: user.id, filter: FeedFilter(tags: ["RARE-TAG"]), position: .start(seed: 1), limit: 20)
        #expect(page.items.map(\.post.contentHash) == ["rare"])
    }
}
