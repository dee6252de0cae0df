import Foundation
import ReelModels
import ReelStore

/// One catalog listing (a browse order or a shelf) as data: where its rows come from, the
/// conditions beyond the viewer's filter, its sort keys and direction. Every catalog page is
/// described here and rendered into SQL by each backend, so anything that narrows what a
/// viewer may list is decided once.
///
/// Rows are ready posts kept by `filter`, ordered by `keys` then the post id, all in one
/// direction; a page starts after a keyset position (the row value `(keys…, id)` compared with
/// the last row's), so the matching index is entered with a seek at any depth.
public struct CatalogListing: Sendable, Equatable {
    /// Where the rows come from: every post, or a per-listing set of post ids (`m` in SQL) whose
    /// columns the keys may use.
    public enum Source: Sendable, Equatable {
        case posts
        /// The viewer's rated posts (`m.rating` ≥ 1).
        case ratedBy(userID: Int64)
        /// The viewer's saved playback positions (`m.position`, `m.saved_at`).
        case savedPositions(userID: Int64)
        /// Posts favorited by anyone, with how many did (`m.favorites`).
        case favoriteCounts
        /// One collection's posts (`m.position`).
        case collection(id: Int64)
    }

    public enum Condition: Sendable, Equatable {
        /// The viewer has not rated the post.
        case notRatedBy(userID: Int64)
        /// The saved position is worth resuming (the post is long enough and the position
        /// between the rule's fractions of it).
        case resumable(ResumeRule)
    }

    /// A sort key: never NULL, so row-value comparisons are total.
    public enum Key: Sendable, Equatable {
        case title
        case dateAdded
        /// `date_posted`, empty when unknown.
        case datePosted
        /// Seconds, 0 without a duration.
        case duration
        /// The viewer's rating, 0 when unrated (per viewer: no index holds it).
        case viewerRating
        case sourceRating
        case savedAt
        case favorites
        case collectionPosition
    }

    public var source: Source
    public var filter: CatalogFilter
    public var conditions: [Condition]
    public var keys: [Key]
    public var descending: Bool

    public init(source: Source = .posts, filter: CatalogFilter, conditions: [Condition] = [], keys: [Key], descending: Bool) {
        self.source = source
        self.filter = filter
        self.conditions = conditions
        self.keys = keys
        self.descending = descending
    }

    // MARK: - The listings

    public static func browse(_ query: BrowseQuery) -> CatalogListing {
        let key: Key = switch query.sort {
        case .title: .title
        case .newest: .dateAdded
        case .posted: .datePosted
        case .duration: .duration
        case .rating: .viewerRating
        }
        return CatalogListing(filter: query.filter, keys: [key], descending: query.descending)
    }

    /// The viewer's rating order as two walks, since no index can hold a per-viewer key: the
    /// posts they rated (few, from their own state rows) by rating, and the rest (rating 0) by
    /// id along the primary key. Descending: rated first; ascending: unrated first. Each walk
    /// says whether its rows are the rated ones.
    public static func ratingWalks(_ filter: CatalogFilter, userID: Int64, descending: Bool) -> [(listing: CatalogListing, rated: Bool)] {
        let rated = CatalogListing(source: .ratedBy(userID: userID), filter: filter, keys: [.sourceRating], descending: descending)
        let unrated = CatalogListing(filter: filter, conditions: [.notRatedBy(userID: userID)], keys: [], descending: descending)
        return descending ? [(rated, true), (unrated, false)] : [(unrated, false), (rated, true)]
    }

    public static func shelf(_ shelf: Shelf, userID: Int64, library: Int64?, resume: ResumeRule) -> CatalogListing {
        var filter = shelfFilter(shelf)
        filter.library = library
        switch shelf {
        case .continueWatching:
            return CatalogListing(
                source: .savedPositions(userID: userID), filter: filter, conditions: [.resumable(resume)], keys: [.savedAt], descending: true
            )
        case .new, .unseen, .tag:
            return CatalogListing(filter: filter, keys: [.dateAdded], descending: true)
        case .topRated:
            return CatalogListing(source: .ratedBy(userID: userID), filter: filter, keys: [.sourceRating, .dateAdded], descending: true)
        case .mostFavorited:
            return CatalogListing(source: .favoriteCounts, filter: filter, keys: [.favorites], descending: true)
        case .collection(let id):
            return CatalogListing(source: .collection(id: id), filter: filter, keys: [.collectionPosition], descending: false)
        }
    }

    /// The shelf's own filter (Unseen: not seen; a tag shelf: that tag).
    public static func shelfFilter(_ shelf: Shelf) -> CatalogFilter {
        switch shelf {
        case .unseen: CatalogFilter(seen: false)
        case .tag(let id): CatalogFilter(tagIDs: [id])
        default: CatalogFilter()
        }
    }
}

/// A catalog filter with tag names turned into ids and the viewer's libraries worked out.
public struct ResolvedCatalogFilter: Sendable, Equatable {
    public var filter: CatalogFilter
    /// Nil: no tag-name constraint. Empty: only unknown tags were named, so nothing matches.
    public var anyTagIDs: [Int64]?
    public var excludeTagIDs: [Int64]
    /// The libraries the viewer may list here; nil: every library (no condition at all).
    public var libraryIDs: [Int64]?

    /// `tagIDs`: the ids of the filter's tag names (nil when it names none, `wantedTags`).
    public init(_ filter: CatalogFilter, tagIDs: [Int64]?, excludeTagIDs: [Int64], scope: LibraryScope) {
        self.filter = filter
        anyTagIDs = tagIDs
        self.excludeTagIDs = excludeTagIDs
        libraryIDs = scope.libraryIDs
    }

    /// The tag names the filter asks for, blanks dropped (nil: no tag-name constraint).
    public static func wantedTags(_ filter: CatalogFilter) -> [String]? {
        let wanted = filter.tags.filter { !TagName.isBlank($0) }
        return wanted.isEmpty ? nil : wanted
    }

    public var matchesNothing: Bool { anyTagIDs?.isEmpty == true || (filter.minRating ?? 0) > 5 || libraryIDs?.isEmpty == true }

    /// The minimum rating a listing keeps (nil: any; 0 and below keep every post).
    public var minRating: Int? { filter.minRating.flatMap { $0 > 0 ? $0 : nil } }

    /// Tag-id sets a post must carry one of each: the names' and the shelf's ids.
    public var requiredTagSets: [[Int64]] {
        [anyTagIDs, filter.tagIDs.isEmpty ? nil : filter.tagIDs].compactMap { $0 }
    }
}

extension CatalogListing.Key {
    /// The key's SQL over the listing's aliases (`p` posts, `s` the viewer's state, `m` the
    /// source's membership row), the same in both dialects.
    public var expression: String {
        switch self {
        case .title: "p.title_key"
        case .dateAdded: "p.date_added"
        case .datePosted: "coalesce(p.date_posted, '')"
        case .duration: "coalesce(p.duration, 0)"
        case .viewerRating: "coalesce(s.rating, 0)"
        case .sourceRating: "m.rating"
        case .savedAt: "m.saved_at"
        case .favorites: "m.favorites"
        case .collectionPosition: "m.position"
        }
    }
}
