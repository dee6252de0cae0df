import Foundation
import ReelModels
import ReelStore

/// What a database answers for the catalog: a `CatalogListing`'s rows in SQL. Which listing,
/// its pages, the rating order's two walks and the shelves' checks are the store core's.
public protocol CatalogBackend: CatalogStore, FeedBackend {
    /// Up to `limit` rows of `listing` after `after`, each with its sort key values, in one read
    /// that resolves the listing's filter for the viewer; nil when the filter matches nothing.
    /// `StoreError.invalid` for a position of another order.
    func catalogRows(_ listing: CatalogListing, userID: Int64, after: CatalogPosition?, limit: Int) async throws -> [(row: FeedRow, keys: [CatalogKey])]?

    func tagExists(id: Int64) async throws -> Bool
    func collectionExists(id: Int64) async throws -> Bool
}

extension CatalogBackend {
    public func browse(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try FeedPaging.checkLimit(limit, "a catalog page")
        if query.sort == .rating {
            return try await ratingPage(query.filter, descending: query.descending, userID: userID, after: after, limit: limit)
        }
        return try await page(CatalogListing.browse(query), userID: userID, after: after, limit: limit)
    }

    public func shelf(_ shelf: Shelf, userID: Int64, library: Int64?, resume: ResumeRule, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try FeedPaging.checkLimit(limit, "a catalog page")
        switch shelf {
        case .tag(let id): guard try await tagExists(id: id) else { throw StoreError.notFound("tag \(id)") }
        case .collection(let id): guard try await collectionExists(id: id) else { throw StoreError.notFound("collection \(id)") }
        default: break
        }
        return try await page(CatalogListing.shelf(shelf, userID: userID, library: library, resume: resume), userID: userID, after: after, limit: limit)
    }

    /// Reads `limit + 1` rows (the extra one tells whether another page follows).
    private func page(_ listing: CatalogListing, userID: Int64, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        guard let rows = try await catalogRows(listing, userID: userID, after: after, limit: limit + 1) else { return ([], nil) }
        return try await finish(rows, limit: limit)
    }

    /// The rating order (`CatalogListing.ratingWalks`), each walk from the cursor on. A cursor's
    /// key (its rating) says which walk it is in: 0 is the unrated walk, and earlier walks are done.
    private func ratingPage(
        _ filter: CatalogFilter, descending: Bool, userID: Int64, after: CatalogPosition?, limit: Int
    ) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        guard after == nil || after?.keys.count == 1 else { throw StoreError.invalid("the position belongs to another order") }
        let walks = CatalogListing.ratingWalks(filter, userID: userID, descending: descending)
        let current = after.map { position in walks.firstIndex { $0.rated == !Self.isZero(position.keys.first) } ?? 0 } ?? 0
        var rows: [(row: FeedRow, keys: [CatalogKey])] = []
        for (index, walk) in walks.enumerated() where index >= current && rows.count <= limit {
            var start: CatalogPosition?
            if index == current, let after { start = walk.rated ? after : CatalogPosition(keys: [], id: after.id) }
            guard let found = try await catalogRows(walk.listing, userID: userID, after: start, limit: limit + 1 - rows.count) else {
                return ([], nil)
            }
            rows += found.map { ($0.row, walk.rated ? $0.keys : [.integer(0)]) }
        }
        return try await finish(rows, limit: limit)
    }

    /// A rating key of 0 however the client's JSON brought it back (0 or 0.0).
    private static func isZero(_ key: CatalogKey?) -> Bool {
        switch key {
        case .integer(0)?: true
        case .real(let value)?: value == 0
        default: false
        }
    }

    /// The first `limit` rows as items, and where the next page starts when a row is left over.
    private func finish(_ rows: [(row: FeedRow, keys: [CatalogKey])], limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        let page = Array(rows.prefix(limit))
        let items = try await items(page.map(\.row))
        guard rows.count > limit, let last = page.last else { return (items, nil) }
        return (items, CatalogPosition(keys: last.keys, id: last.row.id))
    }
}
