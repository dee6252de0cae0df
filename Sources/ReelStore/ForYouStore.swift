import Foundation
import ReelModels

/// Where a reader is in For You. The order is decided afresh on every page from the person's
/// profile and what they have not seen yet (a served page is marked seen), so the cursor only
/// carries what the next page cannot find in the database: a seed for its random walks, how
/// many pages came before, and the last post served (whose uploader the next page must not
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

/// For You and Latest (docs/recommendations-api.md, "Feed"). Every filter of `FeedFilter`
/// applies, and posts the person hid ("not interested") or whose uploader they hid are never
/// served — in the shuffled feed (`FeedStore`) too.
public protocol ForYouStore: Sendable {
    /// Events other than impressions the person has sent, counted up to `atMost` (the default
    /// mode only asks whether there are enough).
    func signalCount(userID: Int64, atMost: Int) async throws -> Int

    /// One page of For You, ranked from the person's profile; its items are marked seen (in
    /// the same call), so no post comes back until everything the person could be shown has
    /// been, and then the least recently seen first. Empty only when nothing matches.
    func forYouPage(userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date) async throws -> (items: [ForYouItem], next: ForYouPosition?)

    /// One page of Latest: newest `date_added` first after `after`; `next` is nil at the end.
    func latestPage(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> (items: [FeedItem], next: LatestPosition?)
}
