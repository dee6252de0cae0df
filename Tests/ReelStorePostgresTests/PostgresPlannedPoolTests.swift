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

    @Test("statements sent at once share the planned connection, each answered with its own rows")
    func statementsShareTheConnection() async throws {
        try await withPostgresStore(poolSize: 2) { (store) async throws in
            let answers = try await withThrowingTaskGroup(of: (Int, Int32, Int).self) { group in
                for n in 0..<64 {
                    group.addTask {
                        try await store.readPlanned { connection in
                            var answer: (Int32, Int) = (0, -1)
                            let query: PostgresQuery = "SELECT pg_backend_pid(), \(n)::bigint"
                            for try await row in try await connection.query(query, logger: testLogger).decode((Int32, Int).self) { answer = row }
                            return (n, answer.0, answer.1)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 64 && answers.allSatisfy { $0.0 == $0.2 }, "each caller its own answer")
            #expect(Set(answers.map(\.1)).count == 1, "one connection (a pool of 2 plans on 1)")
        }
    }

    @Test("a planned connection the server closed is replaced by a new one")
    func aClosedConnectionIsReplaced() async throws {
        try await withPostgresStore(poolSize: 2) { (store) async throws in
            let first = try await Self.backend(store)
            try await store.executeForTesting("SELECT pg_terminate_backend(\(first))")
            var next: Int32?
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                // The first statement may still go to the closing connection (an outage, for
                // the store: it probes and starts afresh); a later one is answered.
                if let pid = try? await Self.backend(store) {
                    next = pid
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(next != nil && next != first, "\(String(describing: next)) after \(first)")
            #expect(try await Self.backend(store) == next, "the new connection stays")
        }
    }

    static func backend(_ store: PostgresStore) async throws -> Int32 {
        try await store.readPlanned { connection in
            var pid: Int32 = 0
            for try await value in try await connection.query("SELECT pg_backend_pid()", logger: testLogger).decode(Int32.self) { pid = value }
            return pid
        }
    }

    static func planCacheMode(_ connection: PostgresConnection) async throws -> String {
        var mode = ""
        for try await value in try await connection.query("SHOW plan_cache_mode", logger: testLogger).decode(String.self) { mode = value }
        return mode
    }
}
