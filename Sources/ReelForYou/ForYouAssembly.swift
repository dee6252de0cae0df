import Foundation
import ReelModels
import ReelRank
import ReelStore

/// For You's page apart from its queries: how many candidates each source gathers, the page's
/// random draws (from the cursor), which ids are described and recycled, and the ranking,
/// exploration and blend over what the store's walks found (ReelRank's `ForYouScorer` and
/// `FeedBlender`). `ForYouFeed` fills it source by source, then asks for the page.
public struct ForYouAssembly: Sendable {
    public let sizes: ForYouSourceSizes
    public var limit: Int { sizes.limit }

    /// Candidate ids by source (a post may come from several).
    public private(set) var origins: [Int64: Set<CandidateSource>] = [:]
    public private(set) var neighbors: [Int64: NeighborScore] = [:]

    public init(limit: Int) {
        sizes = ForYouSourceSizes(limit: limit)
    }

    public mutating func add(_ ids: some Sequence<Int64>, from source: CandidateSource) {
        for id in ids { origins[id, default: []].insert(source) }
    }

    /// The anchors' neighbours scored by `NeighborCandidates` (as `reelhouse eval` scores them)
    /// from their lists, and the best `want · 3` of them: the ones a store checks may be served.
    public func neighborScores(profile: UserProfile, lists: [Int64: [Neighbor]]) -> (scores: [Int64: NeighborScore], best: [Int64]) {
        let scores = NeighborCandidates().scores(profile: profile) { lists[$0] ?? [] }
        let best = scores.sorted { $0.value.score != $1.value.score ? $0.value.score > $1.value.score : $0.key < $1.key }
            .prefix(sizes.neighborsChecked).map(\.key)
        return (scores, best)
    }

    /// Keeps the neighbours among `servable` as candidates.
    public mutating func addNeighbors(_ scores: [Int64: NeighborScore], servable: [Int64]) {
        let kept = Set(servable)
        neighbors = scores.filter { kept.contains($0.key) }
        add(neighbors.keys, from: .neighbor)
    }

    /// The profile's tags as the vocabulary spells them (`spelling`: profile's → vocabulary's),
    /// so they match the posts' tags.
    public static func respelled(_ profile: UserProfile, _ spelling: [String: String]) -> UserProfile {
        var profile = profile
        profile.tagAffinity = Dictionary(profile.tagAffinity.map { (spelling[$0.key] ?? $0.key, $0.value) }) { max($0, $1) }
        return profile
    }

    /// Random starts for the tag and uploader walks of this page.
    public static func walkGenerator(_ position: ForYouPosition) -> SeededGenerator {
        SeededGenerator(seed: position.seed ^ UInt64(truncatingIfNeeded: position.page) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// A random first post id for a walk downwards from it (then from the top when short).
    public static func walkStart(maxPostID: Int64, using generator: inout SeededGenerator) -> Int64 {
        Int64.random(in: 1...max(1, maxPostID + 1), using: &generator)
    }

    /// The exploration walk's posts that no source found (a page's worth, of which about a
    /// third is served: exploration's weighted shuffle chooses among them).
    public func exploring(_ walked: [Int64]) -> [Int64] {
        walked.filter { origins[$0] == nil }
    }

    /// Fewer unseen posts than a page means everything has been seen: this many of the least
    /// recently seen come back (after whatever unseen posts are left).
    public func recycleCount(exploring: [Int64]) -> Int {
        max(0, limit - (origins.count + exploring.count))
    }

    /// The ids the store must describe (`Candidate`s).
    public func described(exploring: [Int64], recycled: [Int64]) -> [Int64] {
        Array(origins.keys) + exploring + recycled
    }

    /// Popularity on each candidate as `reelhouse eval` scales it: the decayed score relative to
    /// the most popular of these posts (keys are logarithms of decayed scores at one instant, so
    /// a ratio of scores is exp(Δkey)).
    public static func scalePopularity(_ candidates: inout [Int64: Candidate], logScores: [Int64: Double]) {
        guard let top = logScores.values.max() else { return }
        for (id, key) in logScores { candidates[id]?.popularity = exp(key - top) }
    }

    /// The page: sourced candidates ranked by `ForYouScorer`, recycled ones after them,
    /// exploration in its weighted shuffle (drawn from the cursor), blended by `FeedBlender`.
    /// `anchorTags`: the tags of the profile's explicit anchors (`ForYouScorer.anchorTags`).
    public func page(
        described: [Int64: Candidate], exploring: [Int64], recycled: [Int64], profile: UserProfile, lengthPrior: LengthPrior,
        position: ForYouPosition, now: Date, previousUploader: String?, tagShares: [String: Double] = [:],
        anchorTags: [Int64: [String]] = [:]
    ) -> [ScoredCandidate] {
        var scorer = ForYouScorer(lengthPrior: lengthPrior)
        scorer.tagShares = tagShares
        scorer.anchorTags = anchorTags
        func candidate(_ id: Int64, _ origin: Set<CandidateSource>) -> Candidate? {
            guard var candidate = described[id] else { return nil }
            candidate.sources = origin
            if let neighbor = neighbors[id] {
                candidate.neighborScore = neighbor.score
                candidate.strongestAnchor = neighbor.strongestAnchor
            }
            return candidate
        }
        var ranked = scorer.rank(origins.compactMap { candidate($0.key, $0.value) }, profile: profile, now: now)
        ranked += recycled.compactMap { candidate($0, []).map { scorer.score($0, profile: profile, now: now) } }
        var exploreOrder = SeededGenerator(seed: position.seed &+ UInt64(truncatingIfNeeded: position.page) &* 0xBF58_476D_1CE4_E5B9)
        let explore = scorer.rankExplore(exploring.compactMap { candidate($0, [.explore]) }, profile: profile, using: &exploreOrder)
        return FeedBlender().blend(ranked: ranked, explore: explore, limit: limit, previousUploader: previousUploader)
    }

    /// The position after a page ending with `lastPostID`.
    public static func next(after position: ForYouPosition, lastPostID: Int64) -> ForYouPosition {
        ForYouPosition(seed: position.seed, page: position.page &+ 1, lastPostID: lastPostID)
    }

    // MARK: - Profile and presentation

    /// What `profile(_:now:)` reads of a person's aggregates.
    public static let profileLimits = ProfileRowLimits(
        signals: UserProfile.maxAnchors, signalCount: UserProfile.signalsForForYou,
        recentSeconds: UserProfile.recentSeconds, recentWindow: UserProfile.recentWindow
    )

    /// The profile from the stored aggregates: affinity rows decayed to `now`, the newest
    /// positive signals, the capped event count and the tags of the posts sent lately.
    public static func profile(_ rows: ProfileRows, now: Date) -> UserProfile {
        var tags: [String: Double] = [:]
        var uploaders: [String: Double] = [:]
        for row in rows.affinities {
            let score = Affinity.score(row.score, at: row.updatedAt, now: now)
            switch row.kind {
            case .tag: tags[row.key] = score
            case .uploader: uploaders[row.key] = score
            }
        }
        var profile = ProfileBuilder().build(signals: rows.signals, tagScores: tags, uploaderScores: uploaders, signalCount: rows.signalCount)
        profile.recentTagExposure = rows.recentTags.reduce(into: [:]) { $0[$1, default: 0] += 1 }
        return profile
    }

    /// The posts whose titles the page's reasons name ("because you liked …").
    public static func anchorIDs(of page: [ScoredCandidate]) -> Set<Int64> {
        Set(page.compactMap { scored -> Int64? in
            switch scored.reason {
            case .liked(let id), .watched(let id): id
            default: nil
            }
        })
    }

    /// The chosen posts as For You items with their reasons in words (`titles`: the anchors').
    public static func items(_ items: [FeedItem], page: [ScoredCandidate], titles: [Int64: String]) -> [ForYouItem] {
        let reasons = Dictionary(page.map { ($0.candidate.postID, $0.reason) }) { first, _ in first }
        return items.map { item in
            let reason = reasons[item.post.id] ?? .explore
            let anchorTitle: String? = switch reason {
            case .liked(let id), .watched(let id): titles[id]
            default: nil
            }
            let name = UploaderKey.name(uploader: item.post.metadata.uploader, username: item.post.metadata.username)
            return ForYouItem(item: item, reasonKind: reason.kind, reason: ReasonText.sentence(reason, anchorTitle: anchorTitle, uploaderName: name))
        }
    }
}

extension LengthPrior {
    /// The prior from stored bucket counts; buckets it does not know are ignored, missing ones
    /// count nothing.
    public init(counts: [LengthBucketCount]) {
        var buckets = Array(repeating: Bucket(judged: 0, longViews: 0), count: Self.bucketCount)
        for count in counts where buckets.indices.contains(count.bucket) {
            buckets[count.bucket] = Bucket(judged: count.judged, longViews: count.longViews)
        }
        self.init(buckets: buckets)
    }
}

/// How much each candidate source of a For You page of `limit` reads and gathers.
public struct ForYouSourceSizes: Sendable {
    /// Rows an index walk may read before it gives up on a source (the other sources and the
    /// exploration walk, which is not bounded, fill the page).
    public static let scanLimit = 400
    /// Neighbours read per anchor (the table keeps the best 50).
    public static let neighborsPerAnchor = 30
    public static let tagsUsed = 5
    public static let uploadersUsed = 3

    public let limit: Int
    /// How many of each source to gather (a page of `limit` needs a few times as many).
    public var want: Int { max(limit * 2, 12) }
    /// Posts wanted from each of the person's strongest tags, each uploader, the newest posts.
    public var perTag: Int { max(2, want / 4) }
    public var perUploader: Int { max(2, want / 5) }
    public var fresh: Int { max(2, want / 3) }
    /// The best-scored neighbours checked for whether they may be served.
    public var neighborsChecked: Int { want * 3 }

    public init(limit: Int) {
        self.limit = limit
    }
}
