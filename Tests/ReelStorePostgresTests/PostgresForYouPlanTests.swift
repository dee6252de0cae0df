import Foundation
import PostgresNIO
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
@testable import ReelStorePostgres
import ReelTestSupport
import Testing

/// For You's walks cost the same at any library size only if PostgreSQL reads each source's
/// index in order and stops at the limit: these pin that, with statistics of a real-sized
/// library and a person who has seen half of it.
@Suite("PostgreSQL For You query plans")
struct PostgresForYouPlanTests {
    @Test("the fresh and popular walks read their indexes in order and stop, with no sort and no scan of posts")
    func walksUseTheirIndexes() async throws {
        try await withPostgresStore { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: t0)
            try await store.executeForTesting("""
                INSERT INTO posts (folder_name, kind, status, date_added, content_hash, uploader, uploader_key)
                SELECT 'p' || n, 'video', CASE WHEN n % 10 = 0 THEN 'queued' ELSE 'ready' END, n, 'h' || n, 'U' || (n % 997), 'u' || (n % 997)
                FROM generate_series(1, 20000) AS n
                """)
            try await store.executeForTesting("INSERT INTO post_popularity (post_id, log_score, events) SELECT id, random() * 100, 1 FROM posts")
            try await store.executeForTesting("""
                INSERT INTO user_post_signals (user_id, post_id, seen_at) SELECT \(viewer.id), id, id FROM posts WHERE id % 2 = 0
                """)
            try await store.executeForTesting("ANALYZE")
            let filter = try await store.resolve(FeedFilter(), userID: viewer.id)
            let sizes = ForYouSourceSizes(limit: 12)
            let scan = ForYouSourceSizes.scanLimit
            let plans = try await store.read { connection in
                var plans: [String: String] = [:]
                for (name, query) in [
                    ("fresh", PostgresStore.freshQuery(limit: sizes.fresh, scanLimit: scan, userID: viewer.id, filter: filter)),
                    ("popular", PostgresStore.popularQuery(limit: sizes.want, scanLimit: scan, userID: viewer.id, filter: filter)),
                ] {
                    var explain = query
                    explain.sql = "EXPLAIN " + explain.sql
                    plans[name] = try await connection.query(explain, logger: store.logger).collect()
                        .map { try $0.decode(String.self) }.joined(separator: "\n")
                }
                return plans
            }
            for (name, index) in [("fresh", "posts_ready_by_added"), ("popular", "post_popularity_by_score")] {
                let plan = try #require(plans[name])
                #expect(plan.contains("Index Only Scan Backward using \(index)") || plan.contains("Index Scan Backward using \(index)"), "\(name): \(plan)")
                #expect(!plan.contains("Sort"), "\(name): \(plan)")
                #expect(!plan.contains("Seq Scan on posts") && !plan.contains("Hash Join"), "\(name): \(plan)")
            }
        }
    }
}
