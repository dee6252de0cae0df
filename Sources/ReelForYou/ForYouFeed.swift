import Foundation
import ReelModels
import ReelRank
import ReelStore

/// Where a reader is in For You. The order is decided afresh on every page from the person's
/// profile and what they have not been sent yet (a served page is marked sent), so the cursor
/// only carries what the next page cannot find in the database: a seed for its random walks,
/// how many pages came before, and the last post served (whose uploader the next page must not
/// start with; kept as the post, so the cursor stays short whatever the uploader's name).
public struct ForYouPosition: Codable, Sendable, Equatable {
    public var seed: UInt64
    public var page: Int
    public var lastPostID: Int64?

    public init(seed: UInt64, page: Int, lastPostID: Int64?) {
        self.seed = seed
        self.page = page
        self.lastPostID = lastPostID
    }

    public static func start(seed: UInt64) -> ForYouPosition {
        ForYouPosition(seed: seed, page: 0, lastPostID: nil)
    }
}

/// A For You item: the post and why it was chosen.
public struct ForYouItem: Sendable, Equatable {
    public var item: FeedItem
    public var reasonKind: ReasonKind
    /// The sentence the info box shows ("because you liked “…”", "popular", …).
    public var reason: String

    public init(item: FeedItem, reasonKind: ReasonKind, reason: String) {
        self.item = item
        self.reasonKind = reasonKind
        self.reason = reason
    }
}

/// For You (docs/recommendations-api.md, "Feed"): ranking runs here, above the store, which only
/// answers the walks of `ForYouSource`. Every filter of `FeedFilter` applies, and posts the person
/// hid ("not interested") or whose uploader they hid are never served.
public struct ForYouFeed: Sendable {
    let source: any ForYouSource
    let feed: any FeedStore
    /// The share of the library's posts each tag is on (lowercased names), for reasons: a tag
    /// on nearly every post is never given as one. The server caches it; empty: every tag may be.
    let tagShares: @Sendable () async -> [String: Double]

    /// The largest page served (the shuffled feed's bound).
    public static let maxPage = 500

    public init(source: any ForYouSource, feed: any FeedStore, tagShares: @escaping @Sendable () async -> [String: Double] = { [:] }) {
        self.source = source
        self.feed = feed
        self.tagShares = tagShares
    }

    /// One page of For You, ranked from the person's profile; its items are marked sent, so no
    /// post comes back until everything the person could be shown has been, and then the least
    /// recently sent first. Empty only when nothing matches.
    public func page(userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date) async throws -> (items: [ForYouItem], next: ForYouPosition?) {
        guard (1...Self.maxPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxPage) posts, not \(limit)")
        }
        let resolved = try await source.resolve(filter, userID: userID)
        if resolved.matchesNothing { return ([], nil) }
        let items = try await choose(userID: userID, filter: resolved, position: position, limit: limit, now: now)
        guard let last = items.last else { return ([], nil) }
        try await source.markSent(userID: userID, postIDs: items.map(\.item.post.id), now: now)
        return (items, ForYouAssembly.next(after: position, lastPostID: last.item.post.id))
    }

    private func choose(userID: Int64, filter: ResolvedFeedFilter, position: ForYouPosition, limit: Int, now: Date) async throws -> [ForYouItem] {
        let profile = ForYouAssembly.profile(try await source.profileRows(userID: userID, limits: ForYouAssembly.profileLimits, now: now), now: now)
        let maxPostID = try await source.maxPostID()
        var assembly = ForYouAssembly(limit: limit)
        let sizes = assembly.sizes
        var generator = ForYouAssembly.walkGenerator(position)
        func servable(_ ids: [Int64]) async throws -> [Int64] { try await source.servable(ids, userID: userID, filter: filter) }

        let lists = try await source.neighbors(of: profile.anchors.map(\.postID), perAnchor: ForYouSourceSizes.neighborsPerAnchor)
        let neighbors = assembly.neighborScores(profile: profile, lists: lists)
        assembly.addNeighbors(neighbors.scores, servable: neighbors.best.isEmpty ? [] : try await servable(neighbors.best))

        // The person's strongest tags as the vocabulary spells them, each walked from a random point.
        let tagNames = Array(profile.topTags.prefix(ForYouSourceSizes.tagsUsed))
        let known = try await source.tags(named: tagNames)
        var spelling: [String: String] = [:]
        var tagWalks: [(name: String, walk: IndexWalk<Int64>)] = []
        for tag in tagNames {
            guard let entry = known[tag] else { continue }
            spelling[tag] = entry.name
            tagWalks.append((tag, IndexWalk(key: entry.id, below: ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator))))
        }
        let tagged = try await walkEach(tagWalks, limit: sizes.perTag) { walks in
            try await source.tagWalks(walks, limit: sizes.perTag, scanLimit: ForYouSourceSizes.scanLimit, userID: userID, filter: filter)
        }
        assembly.add(tagged.keys, from: .tag)
        let uploaderWalks = profile.topUploaders.prefix(ForYouSourceSizes.uploadersUsed).map { key in
            (name: key, walk: IndexWalk(key: key, below: ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)))
        }
        let uploaded = try await walkEach(uploaderWalks, limit: sizes.perUploader) { walks in
            try await source.uploaderWalks(walks, limit: sizes.perUploader, scanLimit: ForYouSourceSizes.scanLimit, userID: userID, filter: filter)
        }
        assembly.add(uploaded.keys, from: .uploader)
        assembly.add(try await source.freshPosts(limit: sizes.fresh, scanLimit: ForYouSourceSizes.scanLimit, userID: userID, filter: filter), from: .fresh)
        assembly.add(try await source.popularPosts(limit: sizes.want, scanLimit: ForYouSourceSizes.scanLimit, userID: userID, filter: filter), from: .popular)

        let exploring = assembly.exploring(try await explore(position: position, count: limit, userID: userID, filter: filter))
        let recycleCount = assembly.recycleCount(exploring: exploring)
        var recycled: [Int64] = []
        if recycleCount > 0 {
            let excluded = Set(assembly.origins.keys).union(exploring)
            let found = try await source.leastRecentlySeen(limit: recycleCount + excluded.count, userID: userID, filter: filter)
            recycled = Array(found.filter { !excluded.contains($0) }.prefix(recycleCount))
        }
        let previousUploader = try await position.lastPostID.asyncFlatMap { try await source.uploaderKey(postID: $0) }
        let page = assembly.page(
            described: try await describe(assembly.described(exploring: exploring, recycled: recycled)),
            exploring: exploring, recycled: recycled, profile: ForYouAssembly.respelled(profile, spelling),
            lengthPrior: LengthPrior(counts: try await source.lengthBuckets()),
            position: position, now: now, previousUploader: previousUploader, tagShares: await tagShares(),
            anchorTags: try await anchorTags(profile)
        )
        return try await present(page, userID: userID)
    }

    /// Each walk from its start downwards, then, for the walks that came up short, again from the
    /// top; the posts found, by the name of the first walk that found them.
    private func walkEach<Key>(
        _ entries: [(name: String, walk: IndexWalk<Key>)], limit: Int, run: ([IndexWalk<Key>]) async throws -> [[Int64]]
    ) async throws -> [Int64: String] {
        guard !entries.isEmpty else { return [:] }
        let first = try await run(entries.map(\.walk))
        let short = entries.indices.filter { first[$0].count < limit }
        let second = short.isEmpty ? [] : try await run(short.map { IndexWalk(key: entries[$0].walk.key, below: nil) })
        var posts: [Int64: String] = [:]
        for (index, entry) in entries.enumerated() {
            for id in first[index] where posts[id] == nil { posts[id] = entry.name }
            if let retry = short.firstIndex(of: index) {
                for id in second[retry] where posts[id] == nil { posts[id] = entry.name }
            }
        }
        return posts
    }

    /// Unseen posts in a random order: the shuffled feed's walk of this page's epoch order
    /// (phase 0, then phase 1), skipping what was sent. Fewer than `count`: nothing else is unseen.
    private func explore(position: ForYouPosition, count: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64] {
        let order = FeedShuffle.order(seed: position.seed, epoch: position.page)
        var found: [Int64] = []
        for phase in 0...1 where found.count < count {
            found += try await source.shuffledPosts(order: order, phase: phase, limit: count - found.count, userID: userID, filter: filter)
        }
        return found
    }

    /// The tags of the profile's explicit anchors, so a tag reason can name the liked post it
    /// comes from (`ForYouScorer.anchorTags`): at most `UserProfile.maxAnchors` posts, one query.
    private func anchorTags(_ profile: UserProfile) async throws -> [Int64: [String]] {
        let liked = profile.anchors.filter(\.explicit).map(\.postID)
        guard !liked.isEmpty else { return [:] }
        return Dictionary(try await source.candidateFacts(liked).map { ($0.postID, $0.tags) }) { first, _ in first }
    }

    /// The candidates the scorer ranks, popularity scaled as `reelhouse eval` scales it.
    private func describe(_ ids: [Int64]) async throws -> [Int64: Candidate] {
        guard !ids.isEmpty else { return [:] }
        var candidates: [Int64: Candidate] = [:]
        var keys: [Int64: Double] = [:]
        for facts in try await source.candidateFacts(ids) {
            candidates[facts.postID] = Candidate(
                postID: facts.postID, uploader: facts.uploaderKey, tags: facts.tags, addedAt: facts.addedAt,
                durationSeconds: facts.durationSeconds, sources: []
            )
            keys[facts.postID] = facts.logPopularity
        }
        ForYouAssembly.scalePopularity(&candidates, logScores: keys)
        return candidates
    }

    /// The chosen candidates as items with the viewer's state and their reasons.
    private func present(_ page: [ScoredCandidate], userID: Int64) async throws -> [ForYouItem] {
        guard !page.isEmpty else { return [] }
        let items = try await feed.feedItems(userID: userID, ids: page.map(\.candidate.postID))
        let titles = try await source.titleParts(Array(ForYouAssembly.anchorIDs(of: page))).mapValues {
            ReasonText.title(description: $0.description, shortcode: $0.shortcode, folderName: $0.folderName)
        }
        return ForYouAssembly.items(items, page: page, titles: titles)
    }
}

extension Optional {
    /// `flatMap` with an async transform.
    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
