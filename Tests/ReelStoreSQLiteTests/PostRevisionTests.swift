import Foundation
import GRDB
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing

/// The feed takes posts from `FeedPostCache` by (id, revision), so every change to what a post
/// is read from must change its revision, and a page must show the change at once.
@Suite("Post revisions behind the feed's post cache")
struct PostRevisionTests {
    @Test("every edit of a post, its tags, its flags or a tag's name gives a new revision and a fresh page", arguments: StoreLocation.allCases)
    func editsAreSeenAtOnce(location: StoreLocation) async throws {
        try await withStore(location) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            let (inserted, _) = try await store.insertPost(newPost(folderName: "p", contentHash: "c", tags: ["cats"]), maxAttempts: 1, now: t0)
            try await store.publish(postID: inserted.id, media: sampleMedia, key: nil)
            let other = try await store.insertPost(newPost(folderName: "q", contentHash: "d", tags: ["dogs"]), maxAttempts: 1, now: t0).0
            try await store.publish(postID: other.id, media: sampleMedia, key: nil)
            func page() async throws -> Post {
                let (items, _) = try await store.feedPage(userID: viewer.id, filter: FeedFilter(), position: .start(seed: 3), limit: 10)
                return try #require(items.first { $0.post.id == inserted.id }).post
            }
            func revision(_ id: Int64 = inserted.id) async throws -> Int64 {
                try await store.read { db in try Int64.fetchOne(db, sql: "SELECT revision FROM posts WHERE id = ?", arguments: [id]) ?? -1 }
            }
            let otherBefore = try await revision(other.id)
            var seen = [try await revision()]
            #expect(try await page().metadata.tags == ["cats"])
            #expect(store.postCache.count == 2)

            var metadata = try await page().metadata
            metadata.description = "edited"
            try await store.updateMetadata(postID: inserted.id, metadata: metadata)
            #expect(try await page().metadata.description == "edited")
            seen.append(try await revision())

            try await store.addTags(postID: inserted.id, tags: ["kittens"])
            #expect(try await page().metadata.tags == ["cats", "kittens"])
            seen.append(try await revision())

            try await store.removeTag(postID: inserted.id, tag: "cats")
            #expect(try await page().metadata.tags == ["kittens"])
            seen.append(try await revision())

            try await store.addFlag(postID: inserted.id, flag: "loud")
            #expect(try await page().flags == ["loud"])
            seen.append(try await revision())

            try await store.removeFlag(postID: inserted.id, flag: "loud")
            #expect(try await page().flags.isEmpty)
            seen.append(try await revision())

            try await store.write { db in try db.execute(sql: "UPDATE tags SET name = 'Kitties' WHERE name = 'kittens'") }
            #expect(try await page().metadata.tags == ["Kitties"])
            seen.append(try await revision())

            #expect(Set(seen).count == seen.count, "each change gave a new revision: \(seen)")
            #expect(seen == seen.sorted())
            #expect(try await revision(other.id) == otherBefore, "the untouched post kept its revision")
        }
    }

    @Test("a page read twice without changes gives equal items, and only the viewer's own state differs between viewers")
    func cachedPostsCarryTheViewersOwnState() async throws {
        try await withStore(.inMemory) { (store) async throws in
            let first = try await store.createUser(name: "first", role: .member, passwordHash: "h", now: t0)
            let second = try await store.createUser(name: "second", role: .member, passwordHash: "h", now: t0)
            let (post, _) = try await store.insertPost(newPost(folderName: "p", contentHash: "c"), maxAttempts: 1, now: t0)
            try await store.publish(postID: post.id, media: sampleMedia, key: nil)
            try await store.setRating(userID: first.id, postID: post.id, rating: 5, now: t0)
            let read = { (user: User) in
                try await store.feedPage(userID: user.id, filter: FeedFilter(), position: .start(seed: 1), limit: 5).items
            }
            let a = try await read(first)
            let b = try await read(second)
            let again = try await read(first)
            #expect(a == again)
            #expect(a.first?.viewer.rating == 5)
            #expect(b.first?.viewer.rating == 0)
            #expect(a.first?.post == b.first?.post)
        }
    }
}
