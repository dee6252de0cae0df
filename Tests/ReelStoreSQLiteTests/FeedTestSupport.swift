import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// A seeded generator, so a failing property run can be replayed from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What the tests believe is in the store, to check the feed against a brute-force filter.
struct ModelPost {
    var id: Int64
    var kind: PostKind
    var ready: Bool
    /// Lowercased.
    var tags: Set<String>
}

struct FeedLibrary {
    var store: any PortableStore
    var viewer: User
    var other: User
    var posts: [Int64: ModelPost]
    var favorites: Set<Int64>
    var ratings: [Int64: Int]

    /// The brute-force answer: ready posts the filter keeps for `viewer`.
    func expected(_ filter: FeedFilter) -> Set<Int64> {
        let any = Set(filter.tags.map { $0.lowercased() })
        let none = Set(filter.excludeTags.map { $0.lowercased() })
        return Set(posts.values.filter { post in
            post.ready
                && (any.isEmpty || !post.tags.isDisjoint(with: any))
                && post.tags.isDisjoint(with: none)
                && (filter.kind == nil || post.kind == filter.kind)
                && (!filter.favoritesOnly || favorites.contains(post.id))
                && (filter.minRating.map { $0 <= 0 || (ratings[post.id] ?? 0) >= $0 } ?? true)
        }.map(\.id))
    }
}

let vocabulary = ["cat", "Dog", "bird", "fish", "frog"]

/// Spells `tag` in a random case, so matching must ignore case.
func randomCase(_ tag: String, using rng: inout SplitMix) -> String {
    String(tag.map { Bool.random(using: &rng) ? Character($0.uppercased()) : Character($0.lowercased()) })
}

/// `size` ready posts plus about a fifth as many that are not ready, random kinds and tags,
/// and random favorites and ratings by both the viewer and another user (which must not leak),
/// in `store` (either backend).
func makeLibrary(size: Int, rng: inout SplitMix, in store: any PortableStore) async throws -> FeedLibrary {
    let viewer = try await store.createUser(name: "viewer", role: .owner, passwordHash: "x", now: t0)
    let other = try await store.createUser(name: "other", role: .member, passwordHash: "x", now: t0)
    var library = FeedLibrary(store: store, viewer: viewer, other: other, posts: [:], favorites: [], ratings: [:])
    let notReady = size / 5 + (size > 0 ? 1 : 0)
    for index in 0..<(size + notReady) {
        let kind = PostKind.allCases.randomElement(using: &rng)!
        let tags = vocabulary.filter { _ in Int.random(in: 0..<10, using: &rng) < 3 }.map { randomCase($0, using: &rng) }
        let (post, _) = try await store.insertPost(
            newPost(folderName: "p\(index)", contentHash: "h\(index)", tags: tags, kind: kind), maxAttempts: 3, now: t0
        )
        let ready = index < size
        if ready {
            try await store.publish(postID: post.id, media: sampleMedia, key: nil)
        } else if Bool.random(using: &rng) {
            try await store.setStatus(postID: post.id, status: .failed, failureReason: "broken")
        }
        library.posts[post.id] = ModelPost(id: post.id, kind: kind, ready: ready, tags: Set(tags.map { $0.lowercased() }))
        if Int.random(in: 0..<3, using: &rng) == 0 {
            try await store.setFavorite(userID: viewer.id, postID: post.id, favorited: true, now: t0.addingTimeInterval(Double(index)))
            library.favorites.insert(post.id)
        }
        if Int.random(in: 0..<2, using: &rng) == 0 {
            let rating = Int.random(in: 1...5, using: &rng)
            try await store.setRating(userID: viewer.id, postID: post.id, rating: rating, now: t0)
            library.ratings[post.id] = rating
        }
        if Bool.random(using: &rng) {
            try await store.setFavorite(userID: other.id, postID: post.id, favorited: true, now: t0)
            try await store.setRating(userID: other.id, postID: post.id, rating: 5, now: t0)
        }
    }
    return library
}

func randomFilter(using rng: inout SplitMix) -> FeedFilter {
    var filter = FeedFilter()
    let tagPool = vocabulary + ["zebra"]
    if Int.random(in: 0..<3, using: &rng) > 0 {
        filter.tags = (0..<Int.random(in: 1...2, using: &rng)).map { _ in randomCase(tagPool.randomElement(using: &rng)!, using: &rng) }
    }
    if Int.random(in: 0..<3, using: &rng) == 0 {
        filter.excludeTags = [randomCase(tagPool.randomElement(using: &rng)!, using: &rng)]
    }
    if Int.random(in: 0..<3, using: &rng) == 0 { filter.kind = PostKind.allCases.randomElement(using: &rng) }
    filter.favoritesOnly = Int.random(in: 0..<4, using: &rng) == 0
    if Int.random(in: 0..<4, using: &rng) == 0 { filter.minRating = Int.random(in: 0...5, using: &rng) }
    return filter
}

/// Walks one epoch from `start` to its end, checking on the way that every page is stable
/// (asked twice, answered the same) and carries the viewer's own state. Returns the ids in
/// feed order and the position after the epoch (nil when nothing matches).
func walkEpoch(
    _ library: FeedLibrary, filter: FeedFilter, from start: FeedPosition, limit: Int,
    between: ((Int) async throws -> Void)? = nil
) async throws -> (ids: [Int64], next: FeedPosition?) {
    var ids: [Int64] = []
    var position = start
    var pages = 0
    while true {
        let page = try await library.store.feedPage(userID: library.viewer.id, filter: filter, position: position, limit: limit)
        let again = try await library.store.feedPage(userID: library.viewer.id, filter: filter, position: position, limit: limit)
        #expect(page.items == again.items && page.next == again.next, "page at \(position) is not stable")
        #expect(page.items.count <= limit)
        for item in page.items {
            #expect(item.post.status == .ready)
            #expect(item.viewer.isFavorited == library.favorites.contains(item.post.id))
            #expect(item.viewer.rating == (library.ratings[item.post.id] ?? 0))
        }
        ids += page.items.map(\.post.id)
        guard let next = page.next else {
            #expect(page.items.isEmpty, "only an empty page may end the feed")
            return (ids, nil)
        }
        #expect(!page.items.isEmpty, "a page is empty only when nothing matches")
        if next.epoch != start.epoch { return (ids, next) }
        pages += 1
        try await between?(pages)
        if pages > 10_000 { Issue.record("epoch never ends"); return (ids, nil) }
        position = next
    }
}
