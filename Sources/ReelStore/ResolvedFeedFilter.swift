import Foundation
import ReelModels

/// A feed filter with names turned into ids, for one viewer: what every feed-like listing (the
/// shuffle, Latest, For You's walks) keeps to. The store resolves it (the viewer's libraries,
/// hidden posts and uploaders, tag ids); the rules that need no database live here, once.
public struct ResolvedFeedFilter: Sendable, Equatable {
    /// Nil: no tag constraint. Empty: the filter named only unknown tags, so nothing matches.
    public var anyTagIDs: [Int64]?
    public var excludeTagIDs: [Int64]
    public var kind: PostKind?
    public var favoritesOnly: Bool
    /// Nil when the filter's minimum is absent or ≤ 0 (every post has rating ≥ 0).
    public var minRating: Int?
    /// The libraries the viewer may see here; nil: every library (no condition at all, so the
    /// common case of one library, or an owner, costs a listing nothing).
    public var libraryIDs: [Int64]?
    /// Whether the viewer hid any post ("not interested"): only then does a query pay for the check.
    public var hidesPosts: Bool
    /// The uploader keys the viewer hid (a short list: a person hides a few uploaders).
    public var hiddenUploaderKeys: [String]

    public init(
        anyTagIDs: [Int64]?, excludeTagIDs: [Int64], kind: PostKind?, favoritesOnly: Bool, minRating: Int?,
        libraryIDs: [Int64]?, hidesPosts: Bool, hiddenUploaderKeys: [String]
    ) {
        self.anyTagIDs = anyTagIDs
        self.excludeTagIDs = excludeTagIDs
        self.kind = kind
        self.favoritesOnly = favoritesOnly
        self.minRating = minRating
        self.libraryIDs = libraryIDs
        self.hidesPosts = hidesPosts
        self.hiddenUploaderKeys = hiddenUploaderKeys
    }

    /// `filter` resolved with what the store looked up: the ids of its tags (`tagIDs`, nil when
    /// it names none) and excluded tags, the viewer's scope and hidden lists.
    public init(
        _ filter: FeedFilter, tagIDs: [Int64]?, excludeTagIDs: [Int64], scope: LibraryScope, hidesPosts: Bool, hiddenUploaderKeys: [String]
    ) {
        self.init(
            anyTagIDs: tagIDs, excludeTagIDs: excludeTagIDs, kind: filter.kind, favoritesOnly: filter.favoritesOnly,
            minRating: Self.minimumRating(filter), libraryIDs: scope.libraryIDs,
            hidesPosts: hidesPosts, hiddenUploaderKeys: hiddenUploaderKeys
        )
    }

    /// The tag names a filter asks for, blanks dropped (nil: no tag constraint at all).
    public static func wantedTags(_ filter: FeedFilter) -> [String]? {
        let wanted = filter.tags.filter { !TagName.isBlank($0) }
        return wanted.isEmpty ? nil : wanted
    }

    /// The filter's minimum rating as a condition: nil when absent or ≤ 0 (every post has rating ≥ 0).
    public static func minimumRating(_ filter: FeedFilter) -> Int? {
        filter.minRating.flatMap { $0 > 0 ? $0 : nil }
    }

    public var matchesNothing: Bool { anyTagIDs?.isEmpty == true || (minRating ?? 0) > 5 || libraryIDs?.isEmpty == true }
}

/// Tag and flag names as every store treats them.
public enum TagName {
    /// Blank names are never stored: they cannot be shown or filtered on.
    public static func isBlank(_ name: String) -> Bool {
        name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// The key names are matched by: only ASCII A–Z fold (SQLite's NOCASE), so "Crème" and
    /// "crème" match but "CRÈME" keeps its È.
    public static func key(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
    }
}

/// Tags and flags: two id-keyed vocabularies of one shape (a table of names, a link table per
/// post), so one implementation per backend serves both. Names match through `TagName.key`; a
/// name keeps the spelling it was first stored with, so its id and display name stay stable.
/// Each backend adds its SQL in an extension.
public enum Vocabulary: Sendable {
    case tags
    case flags

    public var table: String { self == .tags ? "tags" : "flags" }
    public var link: String { self == .tags ? "post_tag_ids" : "post_flag_ids" }
    public var column: String { self == .tags ? "tag_id" : "flag_id" }
}
