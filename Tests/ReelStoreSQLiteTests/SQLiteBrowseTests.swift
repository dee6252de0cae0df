import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing
import ReelTestFiles

@Suite("Browse on SQLite: the title key's upgrade, one index per order")
struct SQLiteBrowseTests {
    @Test func upgradingAV8LibraryKeysItsTitles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let old = try SQLiteStore(path: folder.databasePath, migratingUpTo: "v8_search")
        try old.executeRaw("""
            INSERT INTO posts (id, folder_name, kind, status, description, shortcode, date_added, content_hash)
                VALUES (1, 'a', 'video', 'ready', 'The Zoo', NULL, 1700000000, 'ha'),
                       (2, 'b', 'video', 'ready', NULL, 'Élan 10', 1700000001, 'hb'),
                       (3, 'c-folder', 'video', 'ready', NULL, NULL, 1700000002, 'hc');
            """)
        let store = try SQLiteStore(path: folder.databasePath)
        #expect(try store.rawStrings("SELECT title_key FROM posts ORDER BY id") == ["zoo", "elan 0210", "c folder"])
        let user = try await store.createUser(name: "u", role: .owner, passwordHash: "x", now: t0)
        #expect(try await store.browseAll(userID: user.id, BrowseQuery()) == [3, 2, 1])
        #expect(try store.check() == "ok")
    }

    /// Each order walks its own index from the cursor: no full sort of the library per page.
    @Test func eachOrderPagesThroughItsIndex() async throws {
        let store = try SQLiteStore.inMemory()
        let user = try await store.createUser(name: "u", role: .owner, passwordHash: "x", now: t0)
        try store.insertSyntheticPosts(count: 300, tagsPerPost: 2, now: t0)
        let indexes: [BrowseSort: String] = [
            .title: "posts_ready_by_title", .newest: "posts_ready_by_added", .posted: "posts_ready_by_posted", .duration: "posts_ready_by_duration",
        ]
        for (sort, index) in indexes {
            for descending in [false, true] {
                let first = try await store.browse(userID: user.id, query: BrowseQuery(sort: sort, descending: descending), after: nil, limit: 24)
                let plan = try await store.browseQueryPlan(userID: user.id, query: BrowseQuery(sort: sort, descending: descending), after: first.next, limit: 24)
                let text = plan.joined(separator: "\n")
                #expect(text.contains(index), "\(sort): \(text)")
                #expect(!text.contains("TEMP B-TREE"), "\(sort) sorts the library: \(text)")
            }
        }
    }
}
