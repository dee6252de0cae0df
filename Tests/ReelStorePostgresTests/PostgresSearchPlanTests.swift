import Foundation
import ReelModels
import ReelStore
@testable import ReelStorePostgres
import ReelTestSupport
import Testing

/// Search stays cheap on PostgreSQL only if the planner uses the index each kind of word was
/// given: these pin that, with statistics of a real-sized library.
@Suite("PostgreSQL search query plans")
struct PostgresSearchPlanTests {
    @Test("rare words are looked up in an index, and a broad word walks the newest posts and stops")
    func eachKindOfWordUsesItsIndex() async throws {
        try await withPostgresStore { (store) async throws in
            let user = try await Self.holidayLibrary(store)
            let rare = String(try #require(try await store.rawStrings("SELECT md5('777')").first).prefix(10))
            let cases: [(query: String, expected: String)] = [
                (rare, "Bitmap Index Scan on post_search_fields_trigrams"),
                // A word's start: either GIN index (the planner weighs them), never every post.
                ("zq", "Bitmap Index Scan on post_search_fields_"),
                ("holiday", "Index Scan Backward using post_search_fields_pkey"),
            ]
            for (query, expected) in cases {
                let plan = try await store.searchQueryPlan(userID: user.id, query: SearchQuery.parse(query)).joined(separator: "\n")
                // How the candidates are found; scoring 1,000 of them may read the table whole.
                let candidates = plan.components(separatedBy: "CTE scored").first ?? plan
                #expect(candidates.contains(expected), "\(query): \(plan)")
                #expect(!candidates.contains("Seq Scan on post_search_fields"), "\(query): \(plan)")
            }
            let found = try await store.search(userID: user.id, query: SearchQuery.parse(rare), offset: 0, limit: 5)
            #expect(found.items.map(\.post.folderName) == ["p777"])
        }
    }

    /// 20,000 ready posts, each with one rare word (its md5) and common ones, analyzed; and a
    /// user to search them.
    static func holidayLibrary(_ store: PostgresStore) async throws -> User {
        try await store.executeForTesting("""
            INSERT INTO posts (folder_name, kind, status, description, date_added, content_hash)
            SELECT 'p' || n, 'video', 'ready', 'Holiday clip ' || n || ' ' || md5(n::text), n, 'h' || n
            FROM generate_series(1, 20000) AS n
            """)
        try await store.executeForTesting("ANALYZE")
        return try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: Date(timeIntervalSince1970: 0))
    }
}
