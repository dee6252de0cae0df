import Foundation
import ReelModels
import ReelStore

/// What a database answers for the feed's listings: rows in SQL, nothing more. The walk over
/// epochs and phases, the keyset cursors, the limits and the post cache are the store core's
/// (`FeedBackend`'s extension), once for every database.
///
/// Each call is one read of its own, in which the backend resolves the filter for the viewer
/// (their libraries, what they hid, tag names to ids); nil when the filter matches nothing.
public protocol FeedBackend: FeedStore {
    /// This store's posts, by revision.
    var postCache: PostCache { get }

    /// One phase of a shuffled epoch after `after` (key and id of the last row served), in
    /// walking order (`FeedShuffle`): ascending epochs walk keys ≥ start (phase 0) then keys <
    /// start (phase 1); descending ones walk keys < start downwards, then keys ≥ start
    /// downwards. At most `limit` rows, each with its shuffle key.
    func shuffledRows(
        userID: Int64, filter: FeedFilter, order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int
    ) async throws -> [FeedRow]?

    /// Every ready post the filter keeps, counted.
    func countMatches(userID: Int64, filter: FeedFilter) async throws -> Int?

    /// Newest `date_added` first after `after`, at most `limit` rows, each with its `date_added`.
    func latestRows(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> [(row: FeedRow, addedAt: Double)]?

    /// The rows of `ids` with the viewer's state (ids of posts that do not exist are absent).
    func viewerRows(userID: Int64, ids: [Int64]) async throws -> [FeedRow]

    /// The posts with their tag and flag refs and their revision (the viewer's state is not read).
    func postsForCache(ids: [Int64]) async throws -> [FeedItem]
}

/// Where a walk of an epoch stands: the shuffle key and id of the last row served.
public struct FeedKeyset: Sendable, Equatable {
    public var key: Int64
    public var id: Int64

    public init(key: Int64, id: Int64) {
        self.key = key
        self.id = id
    }
}

/// The feed's bounds, the same on every database.
public enum FeedPaging {
    /// The largest page served, so one request cannot ask for the whole library.
    public static let maxPage = 500

    public static func checkLimit(_ limit: Int, _ what: String = "a feed page") throws {
        guard (1...maxPage).contains(limit) else {
            throw StoreError.invalid("\(what) holds 1 to \(maxPage) posts, not \(limit)")
        }
    }
}

extension FeedBackend {
    /// One page of the shuffled feed (see `FeedStore` and `FeedShuffle` for the contract).
    ///
    /// Reads up to `limit + 1` rows from the rest of the epoch (phase 0, then phase 1): the
    /// extra one tells whether the epoch goes on. When it does not, the page is what is left and
    /// `next` is the start of the next epoch, so a page never mixes two epochs and can never hold
    /// one post twice. A position with nothing left (its posts were deleted) moves on to the next
    /// epoch at once, so a page is empty only when nothing at all matches.
    public func feedPage(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> (items: [FeedItem], next: FeedPosition?) {
        try FeedPaging.checkLimit(limit)
        guard (0...1).contains(position.phase), (position.lastKey == nil) == (position.lastID == nil) else {
            throw StoreError.invalid("malformed feed position")
        }
        var position = position
        while true {
            guard let page = try await walk(userID: userID, filter: filter, from: position, limit: limit) else { return ([], nil) }
            if !page.items.isEmpty { return page }
            if position.isEpochStart { return ([], nil) }
            position = position.nextEpoch
        }
    }

    /// Up to `limit` items of `position`'s epoch after it, and where the walk continues; nil
    /// when the filter matches nothing.
    private func walk(userID: Int64, filter: FeedFilter, from position: FeedPosition, limit: Int) async throws -> (items: [FeedItem], next: FeedPosition?)? {
        let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
        var rows: [(phase: Int, row: FeedRow)] = []
        var phase = position.phase
        var after = position.lastKey.flatMap { key in position.lastID.map { FeedKeyset(key: key, id: $0) } }
        while phase <= 1, rows.count <= limit {
            guard let found = try await shuffledRows(
                userID: userID, filter: filter, order: order, phase: phase, after: after, limit: limit + 1 - rows.count
            ) else { return nil }
            rows += found.map { (phase, $0) }
            if rows.count <= limit {
                phase += 1
                after = nil
            }
        }
        let page = Array(rows.prefix(limit))
        let items = try await items(page.map(\.row))
        guard rows.count > limit, let last = page.last else { return (items, position.nextEpoch) }
        let next = FeedPosition(seed: position.seed, epoch: position.epoch, phase: last.phase, lastKey: last.row.key, lastID: last.row.id)
        return (items, next)
    }

    /// Counts every ready post the filter keeps: O(matches), it is not meant per page.
    public func countFeed(userID: Int64, filter: FeedFilter) async throws -> Int {
        try await countMatches(userID: userID, filter: filter) ?? 0
    }

    /// One page of Latest: `limit + 1` rows, the extra one telling whether another page follows.
    public func latestPage(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> (items: [FeedItem], next: LatestPosition?) {
        try FeedPaging.checkLimit(limit)
        guard let rows = try await latestRows(userID: userID, filter: filter, after: after, limit: limit + 1) else { return ([], nil) }
        let page = rows.prefix(limit)
        let items = try await items(page.map(\.row))
        guard rows.count > limit, let last = page.last else { return (items, nil) }
        return (items, LatestPosition(addedAt: last.addedAt, id: last.row.id))
    }

    public func feedItems(userID: Int64, ids: [Int64]) async throws -> [FeedItem] {
        guard !ids.isEmpty else { return [] }
        let rows = Dictionary(try await viewerRows(userID: userID, ids: ids).map { ($0.id, $0) }) { first, _ in first }
        return try await items(ids.compactMap { rows[$0] })
    }

    /// Rows as items through the post cache.
    public func items(_ rows: [FeedRow]) async throws -> [FeedItem] {
        try await postCache.items(for: rows) { try await postsForCache(ids: $0) }
    }
}
