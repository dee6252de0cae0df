import Foundation
import ReelModels

/// Which posts a catalog listing keeps. Every constraint combines with AND; the lists are OR
/// inside (any of the tags, any of the uploaders, any of the kinds).
public struct CatalogFilter: Sendable, Equatable, Hashable {
    /// Any of these tag names (ignoring case); empty: no constraint.
    public var tags: [String]
    /// Tag ids the post must carry one of (shelves name tags by id); empty: no constraint.
    public var tagIDs: [Int64]
    /// None of these tag names.
    public var excludeTags: [String]
    /// Any of these, matched against the uploader or the username, ignoring (ASCII) case.
    public var uploaders: [String]
    /// Any of these kinds; empty: every kind.
    public var kinds: [PostKind]
    /// Seconds; a post without a duration (an image) counts as 0.
    public var minDuration: Double?
    public var maxDuration: Double?
    /// Only the viewer's favorites.
    public var favoritesOnly: Bool
    /// Only posts the viewer rated at least this (1…5).
    public var minRating: Int?
    /// Only posts the viewer has seen (true) or not (false); nil: both.
    public var seen: Bool?
    /// Only this library; nil: every library granted to the viewer. Every listing keeps to the
    /// viewer's libraries whatever this says; one not granted is `StoreError.notFound`.
    public var library: Int64?

    public init(
        tags: [String] = [], tagIDs: [Int64] = [], excludeTags: [String] = [], uploaders: [String] = [], kinds: [PostKind] = [],
        minDuration: Double? = nil, maxDuration: Double? = nil, favoritesOnly: Bool = false, minRating: Int? = nil, seen: Bool? = nil,
        library: Int64? = nil
    ) {
        self.library = library
        self.tags = tags
        self.tagIDs = tagIDs
        self.excludeTags = excludeTags
        self.uploaders = uploaders
        self.kinds = kinds
        self.minDuration = minDuration
        self.maxDuration = maxDuration
        self.favoritesOnly = favoritesOnly
        self.minRating = minRating
        self.seen = seen
    }
}

/// One browse request: the order and the filter.
public struct BrowseQuery: Sendable, Equatable, Hashable {
    public var sort: BrowseSort
    public var descending: Bool
    public var filter: CatalogFilter

    public init(sort: BrowseSort = .title, descending: Bool? = nil, filter: CatalogFilter = CatalogFilter()) {
        self.sort = sort
        self.descending = descending ?? sort.descendingByDefault
        self.filter = filter
    }
}

/// One value of a listing's sort key, as a keyset cursor carries it.
public enum CatalogKey: Sendable, Equatable, Hashable, Codable {
    case integer(Int64)
    case real(Double)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }
}

/// Where a catalog page ended: the last post's sort key values and id. The next page starts
/// right after it (keyset), so a page costs the same at any depth and nothing is served twice
/// while the library is unchanged.
public struct CatalogPosition: Sendable, Equatable, Hashable, Codable {
    public var keys: [CatalogKey]
    public var id: Int64

    public init(keys: [CatalogKey], id: Int64) {
        self.keys = keys
        self.id = id
    }
}

/// When a playback position is worth resuming (and so shown under Continue watching): the post
/// lasts at least `minDuration` seconds and the position is between `minFraction` and
/// `maxFraction` of it.
public struct ResumeRule: Sendable, Equatable, Hashable {
    public var minDuration: Double
    public var minFraction: Double
    public var maxFraction: Double

    public init(minDuration: Double = 60, minFraction: Double = 0.05, maxFraction: Double = 0.9) {
        self.minDuration = minDuration
        self.minFraction = minFraction
        self.maxFraction = maxFraction
    }

    public func resumes(position: Double, duration: Double) -> Bool {
        duration >= minDuration && position >= duration * minFraction && position <= duration * maxFraction
    }
}

/// The Discover shelves, in the order Discover shows them.
public enum Shelf: Sendable, Equatable, Hashable {
    case continueWatching
    case new
    case topRated
    case mostFavorited
    case unseen
    case tag(Int64)
    case collection(Int64)

    /// The shelves every library has, before the tag and collection ones.
    public static let fixed: [Shelf] = [.continueWatching, .new, .topRated, .mostFavorited, .unseen]

    /// The shelf's id on the wire: `continue`, `new`, …, `tag-12`, `collection-3`.
    public var id: String {
        switch self {
        case .tag(let id): "tag-\(id)"
        case .collection(let id): "collection-\(id)"
        default: kind
        }
    }

    public var kind: String {
        switch self {
        case .continueWatching: "continue"
        case .new: "new"
        case .topRated: "top_rated"
        case .mostFavorited: "most_favorited"
        case .unseen: "unseen"
        case .tag: "tag"
        case .collection: "collection"
        }
    }

    /// The shelf an id names, or nil (`tag-0`, `tag-x` and unknown words name none).
    public init?(id: String) {
        if let fixed = Self.fixed.first(where: { $0.id == id }) {
            self = fixed
            return
        }
        for (prefix, make) in [("tag-", Shelf.tag), ("collection-", Shelf.collection)] where id.hasPrefix(prefix) {
            let digits = id.dropFirst(prefix.count)
            // Exactly the canonical spelling (no sign, no leading zero), so one shelf has one id.
            guard (1...18).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
                  let value = Int64(digits) else { return nil }
            self = make(value)
            return
        }
        return nil
    }
}

/// The catalog: browsing the whole library in an order, and the Discover shelves. Every page
/// holds ready posts only, as feed items with the viewer's state.
public protocol CatalogStore: Sendable {
    /// Up to `limit` posts after `after` in the query's order, and where the next page starts
    /// (nil on the last page). `StoreError.invalid` for a position of another order.
    func browse(userID: Int64, query: BrowseQuery, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?)

    /// A page of one shelf, in `library` only when given (else every library the viewer may
    /// see). `StoreError.notFound` for a tag, collection or library that does not exist or
    /// (a library) is not granted.
    func shelf(_ shelf: Shelf, userID: Int64, library: Int64?, resume: ResumeRule, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?)

    /// The `limit` tags carried by the most ready posts (most first, then by name).
    func popularTags(limit: Int) async throws -> [TagCount]

    /// A tag's name by id, nil when there is no such tag.
    func tagName(id: Int64) async throws -> String?
}

extension CatalogStore {
    /// A page of one shelf over every library the viewer may see.
    public func shelf(_ shelf: Shelf, userID: Int64, resume: ResumeRule, after: CatalogPosition?, limit: Int) async throws -> (items: [FeedItem], next: CatalogPosition?) {
        try await self.shelf(shelf, userID: userID, library: nil, resume: resume, after: after, limit: limit)
    }
}
