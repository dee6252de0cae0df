import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
import ReelTestSupport
import Testing

/// A library with posts of chosen uploaders, tags and ages, on either store.
private struct ForYouLibrary {
    let store: any PortableStore
    let viewer: User
    let other: User

    init(_ store: any PortableStore) async throws {
        self.store = store
        viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "x", now: t0)
        other = try await store.createUser(name: "other", role: .member, passwordHash: "x", now: t0)
    }

    @discardableResult
    func post(_ name: String, uploader: String, tags: [String] = [], description: String? = nil, age: TimeInterval = 0) async throws -> Int64 {
        let (post, _) = try await store.insertPost(
            NewPost(
                kind: .video, folderName: name,
                metadata: PostMetadata(description: description ?? "Clip \(name)", uploader: uploader, username: nil, shortcode: name, tags: tags),
                contentHash: name, sourcePaths: ["sources/\(name).mp4"], dateAdded: t0.addingTimeInterval(-age)
            ),
            maxAttempts: 3, now: t0
        )
        try await store.publish(postID: post.id, media: sampleMedia, key: nil)
        return post.id
    }

    func forYou(_ position: ForYouPosition, limit: Int, filter: FeedFilter = FeedFilter(), now: Date) async throws -> (items: [ForYouItem], next: ForYouPosition?) {
        try await ForYouFeed(source: store, feed: store).page(userID: viewer.id, filter: filter, position: position, limit: limit, now: now)
    }

    func longView(_ postID: Int64, by userID: Int64? = nil, at: Date) -> PersonEvent {
        PersonEvent(userID: userID ?? viewer.id, event: WatchEvent(postID: postID, type: .view, at: at, watchedMs: 2_500, durationMs: 2_500))
    }
}

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("For You and Latest on SQLite and PostgreSQL")
struct ForYouStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func theSeenFilterNeverRepeatsUntilEverythingWasSeenThenServesTheLeastRecentlySeen(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            var ids: [Int64] = []
            for index in 0..<15 { ids.append(try await library.post("p\(index)", uploader: "Uploader \(index % 4)", tags: ["t\(index % 3)"])) }
            // Watched three hours ago: seen already, so not served before everything else.
            let watched = Array(ids.prefix(3))
            try await loadEvents(store, watched.enumerated().map { library.longView($1, at: t0.addingTimeInterval(-10_800 + Double($0))) })
            var served: [Int64] = []
            var position = ForYouPosition.start(seed: 7)
            var page = 0
            while served.count < ids.count - watched.count && page < 10 {
                let result = try await library.forYou(position, limit: 4, now: t0.addingTimeInterval(Double(page)))
                served += result.items.map(\.item.post.id)
                position = try #require(result.next)
                page += 1
            }
            #expect(served.count == ids.count - watched.count)
            #expect(Set(served).count == served.count, "no post twice before everything was seen")
            #expect(Set(served).isDisjoint(with: watched))
            #expect(page == 3, "twelve unseen posts fill three pages of four exactly")
            // Everything was seen: the least recently seen come back first (the watched ones, then
            // the first page served). Within a page the blender may reorder them by uploader.
            let again = try await library.forYou(position, limit: 3, now: t0.addingTimeInterval(100))
            #expect(Set(again.items.map(\.item.post.id)) == Set(watched))
            let next = try await library.forYou(try #require(again.next), limit: 4, now: t0.addingTimeInterval(101))
            #expect(Set(next.items.map(\.item.post.id)) == Set(served.prefix(4)))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func hiddenPostsAndUploadersAreNeverServedInAnyMode(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            let hiddenPost = try await library.post("hidden-post", uploader: "Kept")
            var hiddenUploader: [Int64] = []
            for index in 0..<3 { hiddenUploader.append(try await library.post("gone\(index)", uploader: "  Émile Gone ")) }
            var kept: Set<Int64> = []
            for index in 0..<5 { kept.insert(try await library.post("kept\(index)", uploader: "Kept")) }
            let user = library.viewer.id
            try await executeRaw(store, "INSERT INTO hidden_posts (user_id, post_id, at) VALUES (\(user), \(hiddenPost), 0)")
            try await executeRaw(
                store, "INSERT INTO hidden_uploaders (user_id, uploader_key, uploader, at) VALUES (\(user), 'émile gone', 'Émile Gone', 0)"
            )
            let forYou = try await library.forYou(.start(seed: 3), limit: 20, now: t0)
            #expect(Set(forYou.items.map(\.item.post.id)) == kept)
            let latest = try await library.store.latestPage(userID: user, filter: FeedFilter(), after: nil, limit: 20)
            #expect(Set(latest.items.map(\.post.id)) == kept)
            let shuffle = try await library.store.feedPage(userID: user, filter: FeedFilter(), position: .start(seed: 5), limit: 20)
            #expect(Set(shuffle.items.map(\.post.id)) == kept)
            // Another person hid nothing.
            let theirs = try await library.store.latestPage(userID: library.other.id, filter: FeedFilter(), after: nil, limit: 20)
            #expect(theirs.items.count == 9)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func everyFilterApplies(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            var cats: Set<Int64> = []
            for index in 0..<12 {
                let id = try await library.post("f\(index)", uploader: "U\(index % 5)", tags: index % 3 == 0 ? ["cats"] : ["dogs"])
                if index % 3 == 0 { cats.insert(id) }
            }
            try await loadEvents(store, cats.map { library.longView($0, by: library.other.id, at: t0) })
            let filter = FeedFilter(tags: ["Cats"])
            let forYou = try await library.forYou(.start(seed: 1), limit: 10, filter: filter, now: t0)
            #expect(Set(forYou.items.map(\.item.post.id)) == cats)
            let excluded = try await library.forYou(.start(seed: 2), limit: 10, filter: FeedFilter(excludeTags: ["dogs"]), now: t0)
            #expect(Set(excluded.items.map(\.item.post.id)).isSubset(of: cats))
            let latest = try await library.store.latestPage(userID: library.viewer.id, filter: filter, after: nil, limit: 10)
            #expect(Set(latest.items.map(\.post.id)) == cats)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func latestIsNewestFirstAndEnds(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            var byAge: [Int64] = []
            for index in 0..<7 { byAge.append(try await library.post("l\(index)", uploader: "U", age: Double(index) * 60)) }
            var served: [Int64] = []
            var after: LatestPosition?
            var pages = 0
            repeat {
                let page = try await library.store.latestPage(userID: library.viewer.id, filter: FeedFilter(), after: after, limit: 3)
                served += page.items.map(\.post.id)
                after = page.next
                pages += 1
            } while after != nil && pages < 5
            #expect(served == byAge, "newest date_added first")
            #expect(pages == 3)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aColdStartServesPopularPostsFirst(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            var ids: [Int64] = []
            for index in 0..<10 { ids.append(try await library.post("c\(index)", uploader: "U\(index)")) }
            // Another person made post 6 the most popular and post 2 the next.
            let at = t0.addingTimeInterval(-60)
            try await loadEvents(store,
                (0..<4).map { _ in PersonEvent(userID: library.other.id, event: WatchEvent(postID: ids[6], type: .share, at: at)) }
                    + [PersonEvent(userID: library.other.id, event: WatchEvent(postID: ids[2], type: .share, at: at))]
            )
            let page = try await library.forYou(.start(seed: 9), limit: 5, now: t0)
            let first = try #require(page.items.first)
            #expect(first.item.post.id == ids[6])
            #expect(first.reasonKind == .popular && first.reason == "popular")
            #expect(page.items.map(\.item.post.id).contains(ids[2]))
            #expect(page.items.allSatisfy { [.popular, .new, .explore].contains($0.reasonKind) })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aLikeChangesTheNextPagesFirstCandidatesAndSaysWhy(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            var ids: [Int64] = []
            for index in 0..<20 {
                ids.append(try await library.post(
                    "n\(index)", uploader: "U\(index)",
                    description: index == 0 ? "A very long first line that goes on and on past forty characters\nsecond line" : nil
                ))
            }
            let first = try await library.forYou(.start(seed: 11), limit: 3, now: t0)
            let unserved = ids.filter { id in !first.items.contains { $0.item.post.id == id } }
            let liked = unserved.contains(ids[0]) ? ids[0] : unserved[0]
            let neighbor = unserved.first { $0 != liked }!
            try await loadNeighbors(store, [liked: [Neighbor(postID: neighbor, score: 0.9)]])
            try await loadEvents(store, [PersonEvent(userID: library.viewer.id, event: WatchEvent(postID: liked, type: .favorite, at: t0))])
            let next = try await library.forYou(try #require(first.next), limit: 3, now: t0.addingTimeInterval(1))
            let top = try #require(next.items.first)
            #expect(top.item.post.id == neighbor)
            #expect(top.reasonKind == .liked)
            let title = liked == ids[0] ? "A very long first line that goes on and…" : "Clip n\(ids.firstIndex(of: liked)!)"
            #expect(top.reason == "because you liked “\(title)”")
            #expect(!next.items.contains { $0.item.post.id == liked }, "a post the person acted on is seen")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func tagAndUploaderAffinitiesGiveTheirReasons(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            var watched: [Int64] = []
            for index in 0..<3 { watched.append(try await library.post("w\(index)", uploader: "Bea Maker", tags: ["Knitting"])) }
            let fresh = try await library.post("fresh", uploader: "Bea Maker", tags: ["Knitting"])
            for index in 0..<6 { try await library.post("o\(index)", uploader: "Other \(index)", tags: ["other"]) }
            try await loadEvents(store, watched.map { library.longView($0, at: t0.addingTimeInterval(-30)) })
            let page = try await library.forYou(.start(seed: 4), limit: 10, now: t0)
            let item = try #require(page.items.first { $0.item.post.id == fresh })
            #expect([ReasonKind.tag, .uploader].contains(item.reasonKind))
            #expect(item.reason == "because you like #Knitting" || item.reason == "because you watch Bea Maker")
            #expect(page.items.first?.item.post.id == fresh, "the one post matching the profile ranks first")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func signalsCountEventsOtherThanImpressions(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await ForYouLibrary(store)
            let id = try await library.post("s", uploader: "U")
            try await loadEvents(store,
                (0..<5).map { PersonEvent(userID: library.viewer.id, event: WatchEvent(postID: id, type: .impression, at: t0.addingTimeInterval(Double($0)))) }
                    + (0..<3).map { library.longView(id, at: t0.addingTimeInterval(Double(10 + $0))) }
            )
            #expect(try await library.store.signalCount(userID: library.viewer.id, atMost: 20) == 3)
            #expect(try await library.store.signalCount(userID: library.viewer.id, atMost: 2) == 2)
            #expect(try await library.store.signalCount(userID: library.other.id, atMost: 20) == 0)
        }
    }
}
