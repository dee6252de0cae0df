import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("Shelf store on SQLite and PostgreSQL")
struct ShelfStoreTests {
    /// A store of `backend` with a viewer (an owner) and another user.
    func withViewers(_ backend: StoreBackend, _ body: (any PortableStore, User, User) async throws -> Void) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: t0)
            let other = try await store.createUser(name: "other", role: .member, passwordHash: "x", now: t0)
            try await body(store, viewer, other)
        }
    }

    /// The default rule: at least 60 s, between 5 % and 90 %, boundaries included.
    @Test(arguments: StoreBackend.allCases)
    func continueWatchingListsExactlyThePositionsTheRuleResumes(backend: StoreBackend) async throws {
        try await withViewers(backend) { (store, viewer, other) async throws in
            var expected: [Int64] = []
            var saved = 0.0
            func watch(_ folder: String, duration: Double?, at seconds: Double, kind: PostKind = .video, resumes: Bool) async throws {
                let post = try await makeReadyPost(store, folder: folder, kind: kind, duration: duration)
                saved += 10
                try await store.setPosition(userID: viewer.id, postID: post.id, seconds: seconds, now: t0.addingTimeInterval(saved))
                if resumes { expected.insert(post.id, at: 0) }
            }
            try await watch("short-59s", duration: 59, at: 30, resumes: false)
            try await watch("exactly-60s", duration: 60, at: 30, resumes: true)
            try await watch("four-percent", duration: 100, at: 4, resumes: false)
            try await watch("five-percent", duration: 100, at: 5, resumes: true)
            try await watch("ninety-percent", duration: 100, at: 90, resumes: true)
            try await watch("ninety-one-percent", duration: 100, at: 91, resumes: false)
            try await watch("long-middle", duration: 3600, at: 1800, resumes: true)
            try await watch("image", duration: nil, at: 30, kind: .image, resumes: false)
            // Another user's position is not this viewer's.
            let theirs = try await makeReadyPost(store, folder: "theirs", duration: 600)
            try await store.setPosition(userID: other.id, postID: theirs.id, seconds: 300, now: t0)
            #expect(try await store.shelfAll(.continueWatching, userID: viewer.id) == expected)
            #expect(try await store.shelfAll(.continueWatching, userID: other.id) == [theirs.id])

            // Saving a position again moves the post to the front; clearing it removes it.
            try await store.setPosition(userID: viewer.id, postID: expected.last!, seconds: 31, now: t0.addingTimeInterval(1000))
            let moved = try await store.shelfAll(.continueWatching, userID: viewer.id)
            #expect(moved.first == expected.last)
            try await store.setPosition(userID: viewer.id, postID: expected.last!, seconds: nil, now: t0.addingTimeInterval(1001))
            #expect(try await store.shelfAll(.continueWatching, userID: viewer.id) == Array(expected.dropLast()))

            // A configured rule is honoured: 30 s posts from 50 %.
            let custom = ResumeRule(minDuration: 30, minFraction: 0.5, maxFraction: 1)
            let shorter = try await store.shelfAll(.continueWatching, userID: viewer.id, resume: custom)
            #expect(Set(shorter) == Set(try await positions(store, viewer).filter { custom.resumes(position: $0.1, duration: $0.2) }.map(\.0)))
        }
    }

    /// (post, position, duration) of the viewer's positions, read back through the posts.
    func positions(_ store: any PortableStore, _ viewer: User) async throws -> [(Int64, Double, Double)] {
        var result: [(Int64, Double, Double)] = []
        for post in try await store.posts(status: .ready, limit: 100) {
            let state = try await store.viewerStates(userID: viewer.id, postIDs: [post.id])[post.id]
            if let position = state?.position, let duration = post.media?.duration { result.append((post.id, position, duration)) }
        }
        return result
    }

    @Test(arguments: StoreBackend.allCases)
    func newUnseenTopRatedAndMostFavorited(backend: StoreBackend) async throws {
        try await withViewers(backend) { (store, viewer, other) async throws in
            var ids: [Int64] = []
            for index in 0..<6 {
                ids.append(try await makeReadyPost(store, folder: "p\(index)", added: t0.addingTimeInterval(Double(index))).id)
            }
            _ = try await store.insertPost(newPost(folderName: "queued", contentHash: "q"), maxAttempts: 3, now: t0)
            #expect(try await store.shelfAll(.new, userID: viewer.id) == ids.reversed())

            try await store.markSeen(userID: viewer.id, postID: ids[5], now: t0)
            try await store.markSeen(userID: viewer.id, postID: ids[2], now: t0)
            try await store.markSeen(userID: other.id, postID: ids[4], now: t0)
            #expect(try await store.shelfAll(.unseen, userID: viewer.id) == [ids[4], ids[3], ids[1], ids[0]])

            // Rating first, then the newer post; unrated posts are not on it.
            try await store.setRating(userID: viewer.id, postID: ids[0], rating: 5, now: t0)
            try await store.setRating(userID: viewer.id, postID: ids[1], rating: 3, now: t0)
            try await store.setRating(userID: viewer.id, postID: ids[4], rating: 3, now: t0)
            try await store.setRating(userID: other.id, postID: ids[5], rating: 5, now: t0)
            #expect(try await store.shelfAll(.topRated, userID: viewer.id, limit: 1) == [ids[0], ids[4], ids[1]])

            // Favorites counted across users; posts nobody favorited are not on it.
            let third = try await store.createUser(name: "third", role: .member, passwordHash: "x", now: t0)
            for (post, users) in [(ids[1], [viewer, other, third]), (ids[3], [other]), (ids[2], [viewer, third])] {
                for user in users { try await store.setFavorite(userID: user.id, postID: post, favorited: true, now: t0) }
            }
            #expect(try await store.shelfAll(.mostFavorited, userID: viewer.id, limit: 1) == [ids[1], ids[2], ids[3]])
            #expect(try await store.shelfAll(.mostFavorited, userID: third.id) == [ids[1], ids[2], ids[3]])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func tagShelvesFollowTheMostUsedTags(backend: StoreBackend) async throws {
        try await withViewers(backend) { (store, viewer, _) async throws in
            var cats: [Int64] = []
            for index in 0..<4 {
                let tags = index < 3 ? ["cats", "dogs"] : ["cats"]
                cats.append(try await makeReadyPost(store, folder: "c\(index)", tags: tags, added: t0.addingTimeInterval(Double(index))).id)
            }
            try await makeReadyPost(store, folder: "b", tags: ["birds"])
            let popular = try await store.popularTags(limit: 2)
            #expect(popular.map(\.name) == ["cats", "dogs"] && popular.map(\.count) == [4, 3])
            #expect(try await store.shelfAll(.tag(popular[0].id), userID: viewer.id) == cats.reversed())
            #expect(try await store.tagName(id: popular[1].id) == "dogs")
            await #expect(throws: StoreError.notFound("tag 999")) {
                _ = try await store.shelf(.tag(999), userID: viewer.id, resume: ResumeRule(), after: nil, limit: 5)
            }
        }
    }

    @Test func shelfIDsRoundTrip() {
        for shelf in Shelf.fixed + [.tag(12), .collection(3)] { #expect(Shelf(id: shelf.id) == shelf) }
        for bad in ["", "tag-", "tag-0", "tag-x", "tag--1", "collection-1.5", "New", "tag-99999999999999999999", "tag-+5", "tag-05", "tag-٣"] { #expect(Shelf(id: bad) == nil, "\(bad)") }
    }
}
