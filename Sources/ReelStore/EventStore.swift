import Foundation
import ReelModels

/// What recording a batch did: all of it, or none of it.
public enum EventBatchOutcome: Sendable, Equatable {
    /// `accepted` new events stored with their effects; `duplicates` ids already stored (by an
    /// earlier batch or earlier in this one) ignored.
    case recorded(accepted: Int, duplicates: Int)
    /// Nothing stored: `events[index]` names a post that does not exist or that the person may
    /// not see, or hides the uploader of a post that has none. `reason` says which, in words.
    case refused(index: Int, reason: String)
}

/// Where a newest-first listing of posts (history, "not interested") ends: keyset, so a page
/// costs the same at any depth.
public struct RecentPostCursor: Codable, Sendable, Equatable {
    /// Unix seconds of the last entry on the previous page.
    public var at: Double
    public var postID: Int64

    public init(at: Double, postID: Int64) {
        self.at = at
        self.postID = postID
    }
}

/// A post the person watched (any event but an impression), with their running counts.
public struct HistoryEntry: Sendable, Equatable {
    public var postID: Int64
    /// The last event about it other than an impression.
    public var watchedAt: Date
    public var views: Int
    public var longViews: Int
    public var skips: Int
    public var watchedMs: Int
    /// The post (with refs and the viewer's state) while the person may still see it: ready,
    /// in a library granted to them. Nil otherwise.
    public var item: FeedItem?

    public init(postID: Int64, watchedAt: Date, views: Int, longViews: Int, skips: Int, watchedMs: Int, item: FeedItem?) {
        self.postID = postID
        self.watchedAt = watchedAt
        self.views = views
        self.longViews = longViews
        self.skips = skips
        self.watchedMs = watchedMs
        self.item = item
    }
}

/// A post the person marked "not interested".
public struct HiddenPostEntry: Sendable, Equatable {
    public var postID: Int64
    public var at: Date
    /// As in `HistoryEntry.item`.
    public var item: FeedItem?

    public init(postID: Int64, at: Date, item: FeedItem?) {
        self.postID = postID
        self.at = at
        self.item = item
    }
}

/// An uploader the person hid, as the posts show the name.
public struct HiddenUploaderEntry: Sendable, Equatable {
    public var uploader: String
    public var at: Date

    public init(uploader: String, at: Date) {
        self.uploader = uploader
        self.at = at
    }
}

/// Watch events and what they leave behind (docs/recommendations-api.md): the raw log, the
/// per-person aggregates For You reads (signals, affinities), post popularity, the hidden
/// lists, and the neighbour table the recurring job rebuilds.
public protocol EventStore: Sendable {
    /// Stores a person's batch in one transaction, all or nothing: each new event with its
    /// effects (`user_post_signals`, `user_affinities`, `post_popularity`, and the hidden lists
    /// for `not_interested` / `hide_uploader`); a resent event id counts as a duplicate and
    /// changes nothing. A post is visible when it is `ready` or a `story` in a library granted
    /// to the person; any other post refuses the whole batch. `aggregation`: For You's rules
    /// for the effects.
    func recordEvents(userID: Int64, _ events: [WatchEvent], aggregation: any EventAggregation) async throws -> EventBatchOutcome

    /// Watched posts, newest `watchedAt` first; `next` is nil on the last page.
    /// A limit below 1 is `StoreError.invalid`.
    func history(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HistoryEntry], next: RecentPostCursor?)
    /// Forgets the person's events, signals and affinities (the hidden lists stay).
    func clearHistory(userID: Int64) async throws
    /// Forgets one post's events and signal row; `StoreError.notFound` when it is not in the
    /// history.
    func forgetHistory(userID: Int64, postID: Int64) async throws

    /// "Not interested" posts, newest first.
    func notInterested(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HiddenPostEntry], next: RecentPostCursor?)
    /// `StoreError.notFound` when the post is not in the list.
    func undoNotInterested(userID: Int64, postID: Int64) async throws
    /// Hidden uploaders, newest first.
    func hiddenUploaders(userID: Int64) async throws -> [HiddenUploaderEntry]
    /// `uploader` as listed (matched by `UploaderKey`); `StoreError.notFound` when not hidden.
    func unhideUploader(userID: Int64, uploader: String) async throws

    /// Deletes raw events older than `cutoff` (the aggregates stay); answers how many.
    @discardableResult
    func expireEvents(before cutoff: Date) async throws -> Int
    /// Per person, the posts of their positive events (`aggregation.isPositive`) among the
    /// retained ones, oldest first, at most the `maxPerUser` most recent: what co-visitation
    /// learns from.
    func positiveHistories(maxPerUser: Int, aggregation: any EventAggregation) async throws -> [[Int64]]
    /// Replaces the whole neighbour table in one transaction (posts deleted meanwhile are skipped).
    func replaceNeighbors(_ neighbors: [Int64: [Neighbor]]) async throws
    /// Recounts judged views and long views per length bucket (`edges`: the buckets' upper
    /// edges in seconds) over everyone's signals, and keeps them for the pages that follow
    /// (`ForYouSource.lengthBuckets`); answers the new counts.
    @discardableResult
    func rebuildLengthBuckets(edges: [Double]) async throws -> [LengthBucketCount]
}

/// A watch event with the person who sent it: a row of a bulk load (benchmarks, tests) or of an
/// offline log.
public struct PersonEvent: Sendable, Equatable {
    public var userID: Int64
    public var event: WatchEvent

    public init(userID: Int64, event: WatchEvent) {
        self.userID = userID
        self.event = event
    }
}
