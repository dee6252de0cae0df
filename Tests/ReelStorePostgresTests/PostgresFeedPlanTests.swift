import Foundation
import ReelModels
import ReelStore
@testable import ReelStorePostgres
import ReelTestSupport
import Testing

/// The feed's paging is O(log n) only if PostgreSQL walks the partial shuffle index in order:
/// these pin that the planner, with statistics of a real-sized library, does so at any depth.
@Suite("PostgreSQL feed query plans")
struct PostgresFeedPlanTests {
    @Test("a deep unfiltered page is one ordered scan of the epoch's partial shuffle index, with no sort")
    func deepPageUsesTheShuffleIndex() async throws {
        try await withPostgresStore { (store) async throws in
            let user = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: Date(timeIntervalSince1970: 0))
            let keys = (0..<FeedShuffle.keyCount).map { _ in "(random() * 9223372036854775807)::bigint" }.joined(separator: ", ")
            let columns = (0..<FeedShuffle.keyCount).map { "shuffle\($0)" }.joined(separator: ", ")
            // 20,000 posts, a tenth of them not ready (the partial index leaves those out).
            try await store.executeForTesting("""
                INSERT INTO posts (folder_name, kind, status, date_added, content_hash, \(columns))
                SELECT 'p' || n, 'video', CASE WHEN n % 10 = 0 THEN 'queued' ELSE 'ready' END, n, 'h' || n, \(keys)
                FROM generate_series(1, 20000) AS n
                """)
            try await store.executeForTesting("ANALYZE")
            for seed in [UInt64(1), 2, 3] {
                let order = FeedShuffle.order(seed: seed, epoch: 0)
                let deep = FeedPosition(seed: seed, epoch: 0, phase: 0, lastKey: order.start, lastID: 10_000)
                let plan = try await store.feedQueryPlan(userID: user.id, filter: .all, position: deep, limit: 10)
                let text = plan.joined(separator: "\n")
                #expect(text.contains("Index Scan") && text.contains("posts_ready_by_shuffle\(order.column)"), "\(text)")
                #expect(!text.contains("Sort"), "the index gives the order: \(text)")
                #expect(!text.contains("Seq Scan on posts"), "\(text)")
            }
        }
    }
}
