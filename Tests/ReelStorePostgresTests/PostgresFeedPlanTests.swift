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
    @Test("each browse order pages through its own partial index, with no sort, in both directions")
    func browseOrdersUseTheirIndexes() async throws {
        try await withPostgresStore { (store) async throws in
            let user = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: Date(timeIntervalSince1970: 0))
            try await store.executeForTesting("""
                INSERT INTO posts (folder_name, kind, status, date_added, content_hash, title_key, date_posted, duration)
                SELECT 'p' || n, 'video', CASE WHEN n % 10 = 0 THEN 'queued' ELSE 'ready' END, n, 'h' || n,
                       md5(n::text), '20' || lpad((n % 100)::text, 2, '0') || '-01-01', n % 300
                FROM generate_series(1, 20000) AS n
                """)
            try await store.executeForTesting("ANALYZE")
            let orders: [(BrowseSort, String, CatalogKey)] = [
                (.title, "posts_ready_by_title", .text("8")), (.newest, "posts_ready_by_added", .real(9000)),
                (.posted, "posts_ready_by_posted", .text("2050-01-01")), (.duration, "posts_ready_by_duration", .real(150)),
            ]
            for (sort, index, key) in orders {
                for descending in [false, true] {
                    let after = CatalogPosition(keys: [key], id: 10_000)
                    let plan = try await store.browseQueryPlan(
                        userID: user.id, query: BrowseQuery(sort: sort, descending: descending), after: after, limit: 24
                    ).joined(separator: "\n")
                    #expect(plan.contains(index), "\(sort) \(descending): \(plan)")
                    #expect(!plan.contains("Sort"), "\(sort) \(descending): \(plan)")
                }
            }
        }
    }

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
