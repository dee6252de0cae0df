import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelStoreCore
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL) where the test is about the protocol; the
/// SQLite-only ones (upgrading a file, its query plans) keep to SQLite.
@Suite("Browse store on SQLite and PostgreSQL")
struct BrowseStoreTests {
    /// A small library covering every filter: kinds, durations, tags, uploaders, and the
    /// viewer's favorites, ratings and seen marks (plus another user's, which must not count).
    struct Library {
        let store: any PortableStore
        let viewer: User
        let other: User
        let posts: [CatalogModelPost]
        let favorites: Set<Int64>
        let ratings: [Int64: Int]
        let seen: Set<Int64>

        func expected(_ keep: (CatalogModelPost) -> Bool) -> Set<Int64> { Set(posts.filter(keep).map(\.id)) }
        func browse(_ filter: CatalogFilter, sort: BrowseSort = .title) async throws -> Set<Int64> {
            Set(try await store.browseAll(userID: viewer.id, BrowseQuery(sort: sort, filter: filter)))
        }
    }

    /// `body` with the library in a store of `backend`.
    func withLibrary(_ backend: StoreBackend, _ body: (Library) async throws -> Void) async throws {
        try await withStore(backend) { (store) async throws in try await body(try await library(in: store)) }
    }

    func library(in store: any PortableStore) async throws -> Library {
        let viewer = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: t0)
        let other = try await store.createUser(name: "other", role: .member, passwordHash: "x", now: t0)
        let specs: [(String, PostKind, Double?, [String], String?, String?, String?)] = [
            ("The Matrix", .video, 8160, ["film", "cats"], "Ana Example", "ana", "2020-01-02T00:00:00Z"),
            ("Alien", .video, 7020, ["film"], "Bob", "bob.b", "1979-05-25T00:00:00Z"),
            ("Élan", .video, 12, ["cats"], "Léa", "lea", nil),
            ("Video 10", .video, 45, ["dogs"], "ana", "ana2", "2023-03-01T00:00:00Z"),
            ("Video 2", .video, 30, ["dogs", "cats"], "Cy", "cy", "2023-02-01T00:00:00Z"),
            ("zebra photo", .image, nil, ["animals"], "Bob", "bob.b", nil),
            ("Carousel of cats", .carousel, nil, ["cats", "animals"], nil, "ANA", "2022-01-01T00:00:00Z"),
            ("Mr. Robot", .video, 3000, [], "Dee", "dee", "2015-06-24T00:00:00Z"),
        ]
        var posts: [CatalogModelPost] = []
        for (index, spec) in specs.enumerated() {
            posts.append(try await makeReadyPost(
                store, folder: "post-\(index)", description: spec.0 + "\nmore words", kind: spec.1, duration: spec.2, tags: spec.3,
                uploader: spec.4, username: spec.5, datePosted: spec.6, added: t0.addingTimeInterval(Double(index * 37 % 11))
            ))
        }
        // A post that is not ready is never listed.
        _ = try await store.insertPost(newPost(folderName: "queued", contentHash: "queued", tags: ["cats"]), maxAttempts: 3, now: t0)
        let ids = posts.map(\.id)
        let favorites: Set<Int64> = [ids[0], ids[2], ids[5]]
        let ratings: [Int64: Int] = [ids[0]: 5, ids[1]: 2, ids[3]: 4, ids[6]: 3]
        let seen: Set<Int64> = [ids[1], ids[2], ids[7]]
        for id in favorites { try await store.setFavorite(userID: viewer.id, postID: id, favorited: true, now: t0) }
        for (id, rating) in ratings { try await store.setRating(userID: viewer.id, postID: id, rating: rating, now: t0) }
        for id in seen { try await store.markSeen(userID: viewer.id, postID: id, now: t0) }
        for id in ids { // another user's state on everything
            try await store.setFavorite(userID: other.id, postID: id, favorited: true, now: t0)
            try await store.setRating(userID: other.id, postID: id, rating: 5, now: t0)
            try await store.markSeen(userID: other.id, postID: id, now: t0)
        }
        return Library(store: store, viewer: viewer, other: other, posts: posts, favorites: favorites, ratings: ratings, seen: seen)
    }

    @Test(arguments: StoreBackend.allCases)
    func titleOrderIsTheSortKeysAndPagesWithoutRepeats(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library) async throws in
            let ids = try await library.store.browseAll(userID: library.viewer.id, BrowseQuery())
            let titles = ids.map { id in library.posts.first { $0.id == id }!.title }
            #expect(titles == ["Alien", "Carousel of cats", "Élan", "The Matrix", "Mr. Robot", "Video 2", "Video 10", "zebra photo"])
            let descending = try await library.store.browseAll(userID: library.viewer.id, BrowseQuery(sort: .title, descending: true), limit: 3)
            #expect(descending == ids.reversed())
            let onePage = try await library.store.browse(userID: library.viewer.id, query: BrowseQuery(), after: nil, limit: 100)
            #expect(onePage.items.map(\.post.id) == ids && onePage.next == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theKeyFollowsMetadataEditsAndFallsBackToShortcodeAndFolder(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let user = try await store.createUser(name: "u", role: .owner, passwordHash: "x", now: t0)
            let mango = try await makeReadyPost(store, folder: "zz-folder", shortcode: "Mango")
            let kiwi = try await makeReadyPost(store, folder: "kiwi-folder")
            let banana = try await makeReadyPost(store, folder: "b", description: "The Banana")
            #expect(try await store.browseAll(userID: user.id, BrowseQuery()) == [banana.id, kiwi.id, mango.id])
            try await store.updateMetadata(postID: banana.id, metadata: PostMetadata(description: "Zucchini"))
            #expect(try await store.browseAll(userID: user.id, BrowseQuery()) == [kiwi.id, mango.id, banana.id])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func everyFilterKeepsWhatItSays(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (l) async throws in
            #expect(try await l.browse(CatalogFilter(tags: ["CATS"])) == l.expected { $0.tags.contains("cats") })
            #expect(try await l.browse(CatalogFilter(tags: ["dogs", "film"])) == l.expected { !$0.tags.isDisjoint(with: ["dogs", "film"]) })
            #expect(try await l.browse(CatalogFilter(tags: ["nope"])).isEmpty)
            #expect(try await l.browse(CatalogFilter(excludeTags: ["cats"])) == l.expected { !$0.tags.contains("cats") })
            #expect(try await l.browse(CatalogFilter(excludeTags: ["nope"])).count == l.posts.count)
            // Uploader or username, ignoring case, any of the list.
            #expect(try await l.browse(CatalogFilter(uploaders: ["ANA"])) == l.expected {
                $0.uploader?.lowercased() == "ana" || $0.username?.lowercased() == "ana"
            })
            #expect(try await l.browse(CatalogFilter(uploaders: ["Léa", "BOB"])) == l.expected { ["Léa", "Bob"].contains($0.uploader ?? "") })
            #expect(try await l.browse(CatalogFilter(kinds: [.image, .carousel])) == l.expected { $0.kind != .video })
            #expect(try await l.browse(CatalogFilter(kinds: [.video])) == l.expected { $0.kind == .video })
            #expect(try await l.browse(CatalogFilter(minDuration: 30)) == l.expected { ($0.duration ?? 0) >= 30 })
            #expect(try await l.browse(CatalogFilter(maxDuration: 30)) == l.expected { ($0.duration ?? 0) <= 30 })
            #expect(try await l.browse(CatalogFilter(minDuration: 12, maxDuration: 45)) == l.expected { (12...45).contains($0.duration ?? 0) })
            #expect(try await l.browse(CatalogFilter(favoritesOnly: true)) == l.favorites)
            #expect(try await l.browse(CatalogFilter(minRating: 3)) == Set(l.ratings.filter { $0.value >= 3 }.keys))
            #expect(try await l.browse(CatalogFilter(seen: true)) == l.seen)
            #expect(try await l.browse(CatalogFilter(seen: false)) == l.expected { !l.seen.contains($0.id) })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func filtersCombineWithAnd(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (l) async throws in
            let filter = CatalogFilter(tags: ["cats", "film"], excludeTags: ["dogs"], kinds: [.video], minDuration: 10, seen: false)
            let expected = l.expected { post in
                !post.tags.isDisjoint(with: ["cats", "film"]) && !post.tags.contains("dogs") && post.kind == .video
                    && (post.duration ?? 0) >= 10 && !l.seen.contains(post.id)
            }
            #expect(!expected.isEmpty)
            #expect(try await l.browse(filter) == expected)
            let favoriteRated = CatalogFilter(favoritesOnly: true, minRating: 4)
            #expect(try await l.browse(favoriteRated) == l.favorites.filter { (l.ratings[$0] ?? 0) >= 4 })
            for sort in BrowseSort.allCases {
                #expect(try await l.browse(filter, sort: sort) == expected, "sort \(sort)")
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func everySortOrdersAsSwiftWouldAndTiesBreakOnID(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (l) async throws in
            func check(_ sort: BrowseSort, _ key: (CatalogModelPost) -> Double) async throws {
                // Page sizes that end pages on each side of every boundary (the rating order's two walks).
                for descending in [false, true] { for limit in [1, 3, 4] {
                    let ids = try await l.store.browseAll(userID: l.viewer.id, BrowseQuery(sort: sort, descending: descending), limit: limit)
                    let expected = l.posts.sorted { a, b in
                        let (ka, kb) = (key(a), key(b))
                        if ka != kb { return descending ? ka > kb : ka < kb }
                        return descending ? a.id > b.id : a.id < b.id
                    }.map(\.id)
                    #expect(ids == expected, "\(sort) \(descending ? "desc" : "asc") by \(limit)")
                } }
            }
            try await check(.newest) { $0.added.timeIntervalSince1970 }
            try await check(.duration) { $0.duration ?? 0 }
            try await check(.rating) { Double(l.ratings[$0.id] ?? 0) }
            // Dates posted as text compare as dates (ISO 8601); none sorts as the earliest.
            let posted = l.posts.map { ($0.datePosted ?? "", $0.id) }.sorted { $0 > $1 }.map(\.1)
            #expect(try await l.store.browseAll(userID: l.viewer.id, BrowseQuery(sort: .posted)) == posted)
            #expect(BrowseQuery(sort: .newest).descending && BrowseQuery(sort: .rating).descending && !BrowseQuery(sort: .duration).descending)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPositionFromAnotherOrderIsRefused(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (l) async throws in
            let top = try await l.store.shelf(.topRated, userID: l.viewer.id, resume: ResumeRule(), after: nil, limit: 1)
            let position = try #require(top.next)
            await #expect(throws: StoreError.self) {
                _ = try await l.store.browse(userID: l.viewer.id, query: BrowseQuery(), after: position, limit: 2)
            }
        }
    }
}
