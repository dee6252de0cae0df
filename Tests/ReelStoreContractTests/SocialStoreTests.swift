import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("SocialStore on SQLite and PostgreSQL")
struct SocialStoreTests {
    /// A store with two users and `count` ready posts.
    private func fixture(_ store: any PortableStore, count: Int) async throws -> (User, User, [Int64]) {
        let ana = try await store.createUser(name: "ana", role: .owner, passwordHash: "h", now: t0)
        let bo = try await store.createUser(name: "bo", role: .member, passwordHash: "h", now: t0)
        var ids: [Int64] = []
        for index in 0..<count {
            let (post, _) = try await store.insertPost(newPost(folderName: "p\(index)", contentHash: "c\(index)", tags: []), maxAttempts: 1, now: t0)
            try await store.publish(postID: post.id, media: sampleMedia, key: nil)
            ids.append(post.id)
        }
        return (ana, bo, ids)
    }

    @Test("favorites, ratings, positions and seen marks are per user", arguments: StoreBackend.allCases)
    func perUserState(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (ana, bo, ids) = try await fixture(store, count: 2)
            try await store.setFavorite(userID: ana.id, postID: ids[0], favorited: true, now: t0)
            try await store.setRating(userID: ana.id, postID: ids[0], rating: 4, now: t0)
            try await store.setPosition(userID: ana.id, postID: ids[0], seconds: 1.5, now: t0)
            try await store.markSeen(userID: ana.id, postID: ids[0], now: t0.addingTimeInterval(5))
            try await store.setRating(userID: bo.id, postID: ids[1], rating: 2, now: t0)

            let anaStates = try await store.viewerStates(userID: ana.id, postIDs: ids)
            #expect(anaStates[ids[0]] == ViewerState(isFavorited: true, rating: 4, position: 1.5, seenAt: t0.addingTimeInterval(5)))
            #expect(anaStates[ids[1]] == ViewerState.none)
            let boStates = try await store.viewerStates(userID: bo.id, postIDs: ids)
            #expect(boStates[ids[0]] == ViewerState.none)
            #expect(boStates[ids[1]] == ViewerState(rating: 2))

            try await store.setFavorite(userID: ana.id, postID: ids[0], favorited: false, now: t0)
            try await store.setPosition(userID: ana.id, postID: ids[0], seconds: nil, now: t0)
            let cleared = try await store.viewerStates(userID: ana.id, postIDs: [ids[0]])
            #expect(cleared[ids[0]] == ViewerState(rating: 4, seenAt: t0.addingTimeInterval(5)))
        }
    }

    @Test("ratings are 0…5, positions non-negative, and unknown posts or users are not found", arguments: StoreBackend.allCases)
    func bounds(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (ana, _, ids) = try await fixture(store, count: 1)
            for rating in [-1, 6, 100] {
                await #expect(throws: StoreError.invalid("a rating is 0 to 5, not \(rating)")) {
                    try await store.setRating(userID: ana.id, postID: ids[0], rating: rating, now: t0)
                }
            }
            for rating in 0...5 { try await store.setRating(userID: ana.id, postID: ids[0], rating: rating, now: t0) }
            for seconds in [-1.0, .nan, .infinity] {
                await #expect(throws: StoreError.self) {
                    try await store.setPosition(userID: ana.id, postID: ids[0], seconds: seconds, now: t0)
                }
            }
            await #expect(throws: StoreError.notFound("post 999")) {
                try await store.setFavorite(userID: ana.id, postID: 999, favorited: true, now: t0)
            }
            await #expect(throws: StoreError.notFound("user 999")) {
                try await store.markSeen(userID: 999, postID: ids[0], now: t0)
            }
        }
    }

    @Test("favorites page newest first with a keyset cursor, ready posts only", arguments: StoreBackend.allCases)
    func favoritesPagination(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (ana, bo, ids) = try await fixture(store, count: 7)
            for (offset, id) in ids.enumerated() {
                // Two favorites share a time, so the id tie-break is exercised.
                try await store.setFavorite(userID: ana.id, postID: id, favorited: true, now: t0.addingTimeInterval(Double(min(offset, 5))))
            }
            try await store.setFavorite(userID: ana.id, postID: ids[2], favorited: true, now: t0.addingTimeInterval(100))  // kept: first time wins
            try await store.setFavorite(userID: bo.id, postID: ids[0], favorited: true, now: t0)
            try await store.setStatus(postID: ids[3], status: .failed, failureReason: "gone bad")

            var seen: [Int64] = []
            var cursor: FavoritesCursor?
            repeat {
                let page = try await store.favorites(userID: ana.id, after: cursor, limit: 2)
                #expect(page.posts.count <= 2)
                seen += page.posts.map(\.id)
                cursor = page.next
            } while cursor != nil
            #expect(seen == [ids[6], ids[5], ids[4], ids[2], ids[1], ids[0]])
            #expect(try await store.favorites(userID: bo.id, after: nil, limit: 10).posts.map(\.id) == [ids[0]])
            #expect(try await store.favorites(userID: bo.id, after: nil, limit: 1).next == nil)
        }
    }

    @Test("tags and flags: add, remove, ids, counts over ready posts only", arguments: StoreBackend.allCases)
    func tagsAndFlags(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (_, _, ids) = try await fixture(store, count: 3)
            let (queued, _) = try await store.insertPost(newPost(folderName: "q", contentHash: "q", tags: ["dance", "queued-only"]), maxAttempts: 1, now: t0)
            try await store.addTags(postID: ids[0], tags: ["dance", "Fun", " ", "DANCE"])
            try await store.addTags(postID: ids[1], tags: ["Dance"])
            try await store.addTags(postID: ids[2], tags: ["fun", "garden"])
            #expect(try await store.post(id: ids[0])?.metadata.tags == ["dance", "Fun"])
            #expect(try await store.post(id: ids[1])?.metadata.tags == ["dance"], "a tag keeps its first spelling")

            let counts = try await store.tagCounts()
            #expect(counts.map(\.name) == ["dance", "Fun", "garden"])
            #expect(counts.map(\.count) == [2, 2, 1])
            let refs = try await store.tagRefs(postIDs: [ids[0], ids[2], queued.id, 999])
            let dance = try #require(counts.first { $0.name == "dance" })
            #expect(refs[ids[0]] == [TagCount(id: dance.id, name: "dance", count: 0), TagCount(id: counts[1].id, name: "Fun", count: 0)])
            #expect(refs[queued.id]?.first?.id == dance.id)
            #expect(refs[999] == nil)

            try await store.removeTag(postID: ids[0], tag: "DANCE")
            try await store.removeTag(postID: ids[0], tag: "not-there")
            #expect(try await store.post(id: ids[0])?.metadata.tags == ["Fun"])
            #expect(try await store.tagCounts().first { $0.name == "dance" }?.count == 1)
            await #expect(throws: StoreError.notFound("post 999")) { try await store.addTags(postID: 999, tags: ["x"]) }

            try await store.addFlag(postID: ids[1], flag: "nsfw")
            try await store.addFlag(postID: ids[1], flag: "NSFW")
            try await store.addFlag(postID: ids[1], flag: "pinned")
            #expect(try await store.post(id: ids[1])?.flags == ["nsfw", "pinned"])
            #expect(try await store.flagRefs(postIDs: [ids[1]])[ids[1]]?.map(\.name) == ["nsfw", "pinned"])
            try await store.removeFlag(postID: ids[1], flag: "Nsfw")
            #expect(try await store.post(id: ids[1])?.flags == ["pinned"])
        }
    }

    @Test("deleting a post or a user removes their links and state; tag ids stay", arguments: StoreBackend.allCases)
    func cascades(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let (ana, _, ids) = try await fixture(store, count: 2)
            try await store.addTags(postID: ids[0], tags: ["solo"])
            try await store.addFlag(postID: ids[0], flag: "pinned")
            try await store.setFavorite(userID: ana.id, postID: ids[0], favorited: true, now: t0)
            let soloID = try #require(try await store.tagRefs(postIDs: [ids[0]])[ids[0]]?.first?.id)
            try await store.deletePost(id: ids[0])
            #expect(try await store.tagRefs(postIDs: [ids[0]]).isEmpty)
            #expect(try await store.flagRefs(postIDs: [ids[0]]).isEmpty)
            #expect(try await store.favorites(userID: ana.id, after: nil, limit: 10).posts.isEmpty)
            #expect(try await store.viewerStates(userID: ana.id, postIDs: [ids[0]])[ids[0]] == ViewerState.none)
            #expect(try await store.tagCounts().isEmpty)
            try await store.addTags(postID: ids[1], tags: ["SOLO"])
            #expect(try await store.tagRefs(postIDs: [ids[1]])[ids[1]] == [TagCount(id: soloID, name: "solo", count: 0)])
            if let sqlite = store as? SQLiteStore { #expect(try sqlite.check() == "ok") }
        }
    }
}
