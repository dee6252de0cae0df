import Foundation
import ReelModels
import ReelRank
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite

// What the store suites build libraries from, on either backend: the contract suites
// (ReelStoreContractTests) and each backend's own (migrations, plans, benchmarks).

/// A fixture's check that did not hold (fixtures live outside a test, so they throw).
public struct FixtureFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw FixtureFailure(message()) }
}

/// A fixed instant, so tests reason about leases and backoff without reading the clock.
public let t0 = Date(timeIntervalSince1970: 1_700_000_000)

public func newPost(
    folderName: String = "clip", contentHash: String = UUID().uuidString, tags: [String] = ["dance"],
    sources: [String] = ["sources/a.mp4"], kind: PostKind = .video, dateAdded: Date = t0
) -> NewPost {
    NewPost(
        kind: kind, folderName: folderName,
        metadata: PostMetadata(
            description: "First try #dance", uploader: "Ana Example", username: "ana.example", shortcode: "725",
            datePosted: "2023-11-14T22:13:20Z", sourceURL: "https://example.com/v/725", tags: tags
        ),
        contentHash: contentHash, sourcePaths: sources, dateAdded: dateAdded
    )
}

public let sampleMedia = PublishedMedia(
    duration: 2.5, width: 720, height: 1280, hasSourceAudio: true, encrypted: true, masterPlaylist: "master.m3u8",
    renditions: [
        Rendition(
            name: "720p", width: 720, height: 1280, frameRate: 30, bandwidth: 3_000_000, averageBandwidth: 2_500_000,
            codecs: "avc1.64001f,mp4a.40.2", playlist: "720p/index.m3u8", initSegment: "720p/init.mp4",
            segments: ["720p/seg_00000.m4s", "720p/seg_00001.m4s"]
        ),
    ],
    poster: ImageFile(path: "poster.jpg", width: 720, height: 1280, contentHash: "0123456789abcdef"),
    thumbnail: ImageFile(path: "thumb.jpg", width: 180, height: 320, contentHash: "fedcba9876543210"),
    download: "download.mp4", images: []
)

/// The first column of every row of `sql` as text, on either backend; for checks beneath the
/// protocols (rows really deleted, not hidden).
public func rawStrings(_ store: any PortableStore, _ sql: String) async throws -> [String] {
    if let sqlite = store as? SQLiteStore { return try sqlite.rawStrings(sql) }
    if let postgres = store as? PostgresStore { return try await postgres.rawStrings(sql) }
    throw FixtureFailure("no raw SQL for \(type(of: store))")
}

/// A seeded generator (ReelRank's SplitMix64), so a failing property run can be replayed from its seed.
public typealias SplitMix = SeededGenerator

extension SeededGenerator {
    public init(state: UInt64) { self.init(seed: state) }
}

/// What the tests believe is in the store, to check the feed against a brute-force filter.
public struct ModelPost {
    public var id: Int64
    public var kind: PostKind
    public var ready: Bool
    /// Lowercased.
    public var tags: Set<String>
}

public struct FeedLibrary {
    public var store: any PortableStore
    public var viewer: User
    public var other: User
    public var posts: [Int64: ModelPost]
    public var favorites: Set<Int64>
    public var ratings: [Int64: Int]

    /// The brute-force answer: ready posts the filter keeps for `viewer`.
    public func expected(_ filter: FeedFilter) -> Set<Int64> {
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

public let vocabulary = ["cat", "Dog", "bird", "fish", "frog"]

/// Spells `tag` in a random case, so matching must ignore case.
public func randomCase(_ tag: String, using rng: inout SplitMix) -> String {
    String(tag.map { Bool.random(using: &rng) ? Character($0.uppercased()) : Character($0.lowercased()) })
}

/// `size` ready posts plus about a fifth as many that are not ready, random kinds and tags,
/// and random favorites and ratings by both the viewer and another user (which must not leak),
/// in `store` (either backend).
public func makeLibrary(size: Int, rng: inout SplitMix, in store: any PortableStore) async throws -> FeedLibrary {
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

public func randomFilter(using rng: inout SplitMix) -> FeedFilter {
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
public func walkEpoch(
    _ library: FeedLibrary, filter: FeedFilter, from start: FeedPosition, limit: Int,
    between: ((Int) async throws -> Void)? = nil
) async throws -> (ids: [Int64], next: FeedPosition?) {
    var ids: [Int64] = []
    var position = start
    var pages = 0
    while true {
        let page = try await library.store.feedPage(userID: library.viewer.id, filter: filter, position: position, limit: limit)
        let again = try await library.store.feedPage(userID: library.viewer.id, filter: filter, position: position, limit: limit)
        try check(page.items == again.items && page.next == again.next, "page at \(position) is not stable")
        try check(page.items.count <= limit, "page.items.count <= limit")
        for item in page.items {
            try check(item.post.status == .ready, "item.post.status == .ready")
            try check(item.viewer.isFavorited == library.favorites.contains(item.post.id), "item.viewer.isFavorited == library.favorites.contains(item.post.id)")
            try check(item.viewer.rating == (library.ratings[item.post.id] ?? 0), "item.viewer.rating == (library.ratings[item.post.id] ?? 0)")
        }
        ids += page.items.map(\.post.id)
        guard let next = page.next else {
            try check(page.items.isEmpty, "only an empty page may end the feed")
            return (ids, nil)
        }
        try check(!page.items.isEmpty, "a page is empty only when nothing matches")
        if next.epoch != start.epoch { return (ids, next) }
        pages += 1
        try await between?(pages)
        if pages > 10_000 { throw FixtureFailure("epoch never ends") }
        position = next
    }
}

/// Runs one statement as it is (a state the API cannot build).
public func executeRaw(_ store: any PortableStore, _ sql: String) async throws {
    if let sqlite = store as? SQLiteStore { return try sqlite.executeRaw(sql) }
    if let postgres = store as? PostgresStore { return try await postgres.executeForTesting(sql) }
    throw FixtureFailure("no raw SQL for \(type(of: store))")
}

/// Files a published story item: a post, its filing, then its publish (which makes it `story`).
@discardableResult
public func fileStory(
    _ store: any PortableStore, author: String, userID: Int64? = nil, postedAt: Date, lifetime: TimeInterval? = 86_400,
    archived: Bool = false, libraryID: Int64 = Post.defaultLibraryID, publish: Bool = true
) async throws -> Int64 {
    var post = newPost(folderName: "story-\(UUID().uuidString.prefix(8).lowercased())")
    post.libraryID = libraryID
    let (inserted, _) = try await store.insertPost(post, maxAttempts: 3, now: postedAt)
    try await store.fileStory(
        postID: inserted.id,
        StoryFiling(author: author, userID: userID, postedAt: postedAt, expiresAt: lifetime.map { postedAt + $0 }, archived: archived)
    )
    if publish { try await store.publish(postID: inserted.id, media: sampleMedia, key: nil) }
    return inserted.id
}
