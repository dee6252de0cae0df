import Foundation
import ReelModels

// `FeedFilter`, the feed's filters, is a wire type: it lives in ReelModels.

/// Where a reader is in the endless shuffled feed. Everything about the order derives from
/// `seed` and `epoch` (see `FeedShuffle`), so a position is a complete, stateless cursor: the
/// server stores nothing per reader, and any node can serve the next page.
public struct FeedPosition: Codable, Sendable, Equatable, Hashable {
    public var seed: UInt64
    /// How many times the filtered library has been walked through; each epoch is a new order.
    public var epoch: Int
    /// 0 while walking the keys from the epoch's start offset onwards, 1 after wrapping round.
    public var phase: Int
    /// The shuffle key and id of the last post served in this phase; nil at a phase's start.
    public var lastKey: Int64?
    public var lastID: Int64?

    public init(seed: UInt64, epoch: Int, phase: Int, lastKey: Int64?, lastID: Int64?) {
        self.seed = seed
        self.epoch = epoch
        self.phase = phase
        self.lastKey = lastKey
        self.lastID = lastID
    }

    /// The first page of epoch 0.
    public static func start(seed: UInt64) -> FeedPosition {
        FeedPosition(seed: seed, epoch: 0, phase: 0, lastKey: nil, lastID: nil)
    }

    /// The first page of the following epoch (wrapping rather than trapping at `Int.max`).
    public var nextEpoch: FeedPosition {
        FeedPosition(seed: seed, epoch: epoch &+ 1, phase: 0, lastKey: nil, lastID: nil)
    }

    public var isEpochStart: Bool { phase == 0 && lastKey == nil && lastID == nil }
}

/// A post with what the viewing user did with it, fetched in the same query.
public struct FeedItem: Sendable, Equatable {
    public var post: Post
    public var viewer: ViewerState
    /// The post's tags and flags with their ids, in order, when the store read them with the
    /// page (nil: the presenter loads them). `count` is not meaningful here.
    public var tagRefs: [TagCount]?
    public var flagRefs: [TagCount]?
    /// The store's version of the post with its refs, when it keeps one: a number that changes
    /// whenever anything above but `viewer` changes, so a cache of what is made from them can
    /// check an entry with one comparison. Nil: compare the values themselves.
    public var revision: Int64?

    public init(post: Post, viewer: ViewerState, tagRefs: [TagCount]? = nil, flagRefs: [TagCount]? = nil, revision: Int64? = nil) {
        self.post = post
        self.viewer = viewer
        self.tagRefs = tagRefs
        self.flagRefs = flagRefs
        self.revision = revision
    }
}

/// The endless shuffled feed.
///
/// Contract: within one epoch no post is served twice; walking an epoch to its end serves every
/// post matching the filter that stayed ready throughout; the next epoch is a different order.
/// The same position always gives the same page while the library is unchanged. A page never
/// crosses into the next epoch: it may be short, and its `next` is then the start of the next
/// epoch. It is empty only when nothing matches, and then `next` is nil.
///
/// Only posts in the libraries the user may see are served (`LibraryGrantStore.scope`); a
/// filter naming a library not granted to the user is `StoreError.notFound`.
public protocol FeedStore: Sendable {
    func feedPage(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> (items: [FeedItem], next: FeedPosition?)
    func countFeed(userID: Int64, filter: FeedFilter) async throws -> Int

    /// One page of Latest: newest `date_added` first after `after`; `next` is nil at the end.
    /// The same filters apply, and what the person hid is never served.
    func latestPage(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> (items: [FeedItem], next: LatestPosition?)

    /// The posts with the viewer's state, in the order of `ids` (ids of posts that do not exist
    /// are left out; the caller has checked what may be shown).
    func feedItems(userID: Int64, ids: [Int64]) async throws -> [FeedItem]
}

/// Where a reader is in Latest: the last post served (newest `date_added` first, then id).
public struct LatestPosition: Codable, Sendable, Equatable {
    /// `date_added` of the last post served, seconds since 1970.
    public var addedAt: Double
    public var id: Int64

    public init(addedAt: Double, id: Int64) {
        self.addedAt = addedAt
        self.id = id
    }
}
