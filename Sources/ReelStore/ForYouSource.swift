import Foundation
import ReelModels

/// What For You reads and writes to rank a page (docs/recommendations-api.md, "Feed"), asked
/// one source at a time by the service above the store (ReelForYou's `ForYouFeed`), which holds
/// every rule of the ranking: the store answers in rows and ids.
///
/// Every walk keeps to posts the person may be served: ready, kept by the resolved filter, not
/// hidden, and (but `leastRecentlySeen`) never sent to them before; each reads a bounded slice
/// of one index (`scanLimit` rows at most), so a page costs the same at any library size.
public protocol ForYouSource: Sendable {
    /// `filter` for `userID`, names turned into ids: asked once per page and handed back to
    /// every walk. A library not granted to the user is `StoreError.notFound`.
    func resolve(_ filter: FeedFilter, userID: Int64) async throws -> ResolvedFeedFilter

    /// Events other than impressions the person has sent, counted up to `atMost`.
    func signalCount(userID: Int64, atMost: Int) async throws -> Int

    /// The stored aggregates a profile is made from (see `ProfileRows`).
    func profileRows(userID: Int64, limits: ProfileRowLimits, now: Date) async throws -> ProfileRows

    /// The highest post id (0 for an empty library): where random walks start from.
    func maxPostID() async throws -> Int64

    /// The best `perAnchor` neighbours of each anchor, best first (anchors without any are absent).
    func neighbors(of anchors: [Int64], perAnchor: Int) async throws -> [Int64: [Neighbor]]

    /// Which of `ids` may be served (see above), in id order.
    func servable(_ ids: [Int64], userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64]

    /// The tags named (ignoring ASCII case), keyed by the name as asked, with their id and the
    /// vocabulary's spelling; unknown names are absent.
    func tags(named names: [String]) async throws -> [String: (id: Int64, name: String)]

    /// For each walk, the servable posts among the first `scanLimit` of the tag's posts below
    /// its start (nil: from the newest), newest first, at most `limit`; in the order given.
    func tagWalks(_ walks: [IndexWalk<Int64>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [[Int64]]

    /// As `tagWalks`, over the posts of uploaders (by `UploaderKey`).
    func uploaderWalks(_ walks: [IndexWalk<String>], limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [[Int64]]

    /// The newest servable posts among the `scanLimit` newest ready ones, at most `limit`.
    func freshPosts(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64]

    /// The most popular servable posts now among the `scanLimit` most popular, at most `limit`.
    func popularPosts(limit: Int, scanLimit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64]

    /// Servable posts in one phase of a shuffled epoch's order (`FeedShuffle`), at most `limit`:
    /// unbounded, so fewer than `limit` means nothing else in that phase is unseen.
    func shuffledPosts(order: FeedShuffle.EpochOrder, phase: Int, limit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64]

    /// Posts the person was sent before that may be served again, least recently sent first.
    func leastRecentlySeen(limit: Int, userID: Int64, filter: ResolvedFeedFilter) async throws -> [Int64]

    /// What ranking needs to know about each post (absent ids are missing).
    func candidateFacts(_ ids: [Int64]) async throws -> [CandidateFacts]

    /// The uploader key of a post (nil: no such post, or neither uploader nor username).
    func uploaderKey(postID: Int64) async throws -> String?

    /// Judged views and long views per length bucket, as the last `rebuildLengthBuckets` left them.
    func lengthBuckets() async throws -> [LengthBucketCount]

    /// The posts' title parts (description, shortcode, folder name), for reasons that name them.
    func titleParts(_ ids: [Int64]) async throws -> [Int64: PostTitleParts]

    /// Records that the posts were sent to the person `now` (so they are not served again until
    /// everything else has been).
    func markSent(userID: Int64, postIDs: [Int64], now: Date) async throws
}

/// One walk of an index from a start.
public struct IndexWalk<Key: Sendable & Hashable>: Sendable, Hashable {
    public var key: Key
    /// Walk the posts with ids below this (nil: from the newest).
    public var below: Int64?

    public init(key: Key, below: Int64?) {
        self.key = key
        self.below = below
    }
}

/// How much of a person's aggregates `profileRows` reads.
public struct ProfileRowLimits: Sendable, Equatable {
    /// The newest watched signal rows with a positive label.
    public var signals: Int
    /// Events counted at most.
    public var signalCount: Int
    /// Posts sent within this many seconds before `now`, at most `recentWindow` of them, whose tags are read.
    public var recentSeconds: TimeInterval
    public var recentWindow: Int

    public init(signals: Int, signalCount: Int, recentSeconds: TimeInterval, recentWindow: Int) {
        self.signals = signals
        self.signalCount = signalCount
        self.recentSeconds = recentSeconds
        self.recentWindow = recentWindow
    }
}

/// A person's stored aggregates (docs/recommendations-api.md, "Profile").
public struct ProfileRows: Sendable, Equatable {
    public var affinities: [AffinityRow]
    /// The newest watched rows with a positive label, newest first; `explicit` is the post's
    /// current state (favorited, or rated 4 or 5), what the person still stands by.
    public var signals: [PostSignal]
    public var signalCount: Int
    /// Tags of the posts sent lately, once per post carrying them.
    public var recentTags: [String]

    public init(affinities: [AffinityRow], signals: [PostSignal], signalCount: Int, recentTags: [String]) {
        self.affinities = affinities
        self.signals = signals
        self.signalCount = signalCount
        self.recentTags = recentTags
    }
}

/// One `user_affinities` row: a decayed score for a tag or an uploader, at an instant.
public struct AffinityRow: Sendable, Equatable {
    public var kind: EventEffects.AffinityKind
    public var key: String
    public var score: Double
    public var updatedAt: Date

    public init(kind: EventEffects.AffinityKind, key: String, score: Double, updatedAt: Date) {
        self.kind = kind
        self.key = key
        self.score = score
        self.updatedAt = updatedAt
    }
}

/// What ranking needs to know about a candidate post.
public struct CandidateFacts: Sendable, Equatable {
    public var postID: Int64
    /// `UploaderKey.key`; nil when the post has neither uploader nor username.
    public var uploaderKey: String?
    public var tags: [String]
    public var addedAt: Date
    public var durationSeconds: Double?
    /// The post's stored popularity key (a log of its decayed score); nil before any positive event.
    public var logPopularity: Double?

    public init(postID: Int64, uploaderKey: String?, tags: [String], addedAt: Date, durationSeconds: Double?, logPopularity: Double?) {
        self.postID = postID
        self.uploaderKey = uploaderKey
        self.tags = tags
        self.addedAt = addedAt
        self.durationSeconds = durationSeconds
        self.logPopularity = logPopularity
    }
}

/// Judged views (views and skips) and long views of posts in one length bucket.
public struct LengthBucketCount: Sendable, Equatable {
    public var bucket: Int
    public var judged: Int
    public var longViews: Int

    public init(bucket: Int, judged: Int, longViews: Int) {
        self.bucket = bucket
        self.judged = judged
        self.longViews = longViews
    }

    /// The bucket of a length column as SQL (the same text in SQLite and PostgreSQL): the index
    /// of the first edge the length does not exceed.
    public static func bucketSQL(_ column: String, edges: [Double]) -> String {
        let cases = edges.enumerated().map { "WHEN \(column) <= \($0.element) THEN \($0.offset)" }
        return "CASE " + cases.joined(separator: " ") + " ELSE \(edges.count) END"
    }
}

/// The fields a post's title is made from.
public struct PostTitleParts: Sendable, Equatable {
    public var description: String?
    public var shortcode: String?
    public var folderName: String

    public init(description: String?, shortcode: String?, folderName: String) {
        self.description = description
        self.shortcode = shortcode
        self.folderName = folderName
    }
}
