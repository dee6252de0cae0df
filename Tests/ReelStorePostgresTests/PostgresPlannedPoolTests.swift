import Foundation
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore
@testable import ReelStorePostgres
import ReelTestSupport
import Testing

/// The feed's hot prepared statements run on sessions that keep their generic plan, so
/// PostgreSQL plans them once per connection; every other query keeps the default.
@Suite("PostgreSQL planned pool")
struct PostgresPlannedPoolTests {
    @Test("the unfiltered page is planned once per connection, generic, and other sessions are untouched")
    func theFeedPageKeepsItsGenericPlan() async throws {
        // A pool of 2: the planned pool has one connection, so its statistics are this test's.
        try await withPostgresStore(poolSize: 2) { (store) async throws in
            #expect(PostgresStore.plannedPoolSize(2) == 1 && PostgresStore.plannedPoolSize(1) == 1 && PostgresStore.plannedPoolSize(8) == 4)
            let user = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: Date(timeIntervalSince1970: 0))
            let keys = (0..<FeedShuffle.keyCount).map { _ in "(random() * 9223372036854775807)::bigint" }.joined(separator: ", ")
            let columns = (0..<FeedShuffle.keyCount).map { "shuffle\($0)" }.joined(separator: ", ")
            try await store.executeForTesting("""
                INSERT INTO posts (folder_name, kind, status, date_added, content_hash, \(columns))
                SELECT 'p' || n, 'video', 'ready', n, 'h' || n, \(keys) FROM generate_series(1, 2000) AS n
                """)
            try await store.executeForTesting("ANALYZE")
            var served: [Int64] = []
            for _ in 0..<8 {
                served += try await store.feedPage(userID: user.id, filter: .all, position: .start(seed: 7), limit: 10).items.map(\.post.id)
            }
            #expect(Set(served).count == 10, "the same first page every time")

            let plans = try await store.readPlanned { connection in
                var rows: [(String, Int64, Int64)] = []
                let query: PostgresQuery = "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'reelhouse_feed_page%'"
                for try await row in try await connection.query(query, logger: testLogger).decode((String, Int64, Int64).self) { rows.append(row) }
                return rows
            }
            #expect(plans.count == 1, "\(plans)")
            #expect(plans.allSatisfy { $0.1 >= 8 && $0.2 == 0 }, "generic every time, never re-planned: \(plans)")

            let modes = try await (store.read { try await Self.planCacheMode($0) }, store.readPlanned { try await Self.planCacheMode($0) })
            #expect(modes.0 == "auto" && modes.1 == "force_generic_plan")
        }
    }

    static func planCacheMode(_ connection: PostgresConnection) async throws -> String {
        var mode = ""
        for try await value in try await connection.query("SHOW plan_cache_mode", logger: testLogger).decode(String.self) { mode = value }
        return mode
    }
}
