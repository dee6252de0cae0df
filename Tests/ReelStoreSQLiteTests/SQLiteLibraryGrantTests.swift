import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing
import ReelTestFiles

@Suite("Libraries on SQLite: the v10 upgrade, scoped feed plans")
struct SQLiteLibraryGrantTests {
    @Test("v10 puts every existing post in library 1 and grants it to every existing and new user")
    func migration() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let old = try SQLiteStore(path: folder.databasePath, migratingUpTo: "v8_search")
        let ana = try await old.createUser(name: "ana", role: .member, passwordHash: "h", now: t0)
        try old.executeRaw("""
            INSERT INTO posts (id, folder_name, kind, status, date_added, content_hash, media_json)
                VALUES (1, 'a', 'video', 'ready', 1700000000, 'ha', NULL);
            """)
        let postID: Int64 = 1

        let store = try SQLiteStore(path: folder.databasePath)
        #expect(try store.schemaVersion() == SQLiteStore.currentSchemaVersion)
        #expect(try store.check() == "ok")
        #expect(try await store.post(id: postID)?.libraryID == 1)
        let libraries = try await store.libraries()
        #expect(libraries.map(\.name) == ["Library"] && libraries[0].postCount == 1 && libraries[0].members == [ana.id])
        let bo = try await store.createUser(name: "bo", role: .member, passwordHash: "h", now: t0)
        #expect(try await store.library(id: 1)?.members == [ana.id, bo.id])
        let page = try await store.feedPage(userID: ana.id, filter: .all, position: .start(seed: 1), limit: 10)
        #expect(page.items.map(\.post.id) == [postID])
    }

    @Test("a member scoped to a small library starts from its posts; a large one walks the shuffle index")
    func scopedFeedPlans() async throws {
        let store = try SQLiteStore.inMemory()
        try store.insertSyntheticPosts(count: 2_000, tagsPerPost: 1, now: t0)
        let small = try await store.createLibrary(name: "Small", now: t0)
        var new = newPost(contentHash: "small")
        new.libraryID = small.id
        let (post, _) = try await store.insertPost(new, maxAttempts: 1, now: t0)
        try await store.publish(postID: post.id, media: sampleMedia, key: nil)
        let member = try await store.createUser(name: "member", role: .member, passwordHash: "h", now: t0)

        // Granted only the big library (of two): the index walk, with the library as a condition.
        let big = try await store.feedQueryPlan(userID: member.id, filter: .all, position: .start(seed: 1), limit: 20)
        #expect(big.contains { $0.contains("posts_ready_by_shuffle") }, "\(big)")
        #expect(!big.contains { $0.hasPrefix("SCAN p") }, "\(big)")

        try await store.grant(libraryID: small.id, userID: member.id)
        let scoped = try await store.feedQueryPlan(userID: member.id, filter: FeedFilter(library: small.id), position: .start(seed: 1), limit: 20)
        #expect(scoped.contains { $0.contains("posts_ready_by_library") }, "\(scoped)")
        #expect(!scoped.contains { $0.hasPrefix("SCAN p") }, "\(scoped)")
        let page = try await store.feedPage(userID: member.id, filter: FeedFilter(library: small.id), position: .start(seed: 1), limit: 20)
        #expect(page.items.map(\.post.id) == [post.id])
    }
}
