import Foundation
import ReelModels

/// Where a favorites page ends. Keyset, not offset, so a page costs the same at any depth and
/// a favorite added meanwhile does not shift later pages.
public struct FavoritesCursor: Codable, Sendable, Equatable {
    /// Unix seconds of the last favorite on the previous page.
    public var favoritedAt: Double
    public var postID: Int64

    public init(favoritedAt: Double, postID: Int64) {
        self.favoritedAt = favoritedAt
        self.postID = postID
    }
}

/// Per-user state (favorites, ratings, playback positions, seen marks) and the shared
/// vocabulary of tags and flags.
public protocol SocialStore: Sendable {
    /// `StoreError.notFound` if the post or the user does not exist. Favoriting twice keeps
    /// the first time, so the favorites list does not reorder on a double tap.
    func setFavorite(userID: Int64, postID: Int64, favorited: Bool, now: Date) async throws
    /// 0 (clears) through 5; anything else is `StoreError.invalid`.
    func setRating(userID: Int64, postID: Int64, rating: Int, now: Date) async throws
    /// Nil clears the position. Negative or non-finite seconds are `StoreError.invalid`.
    func setPosition(userID: Int64, postID: Int64, seconds: Double?, now: Date) async throws
    func markSeen(userID: Int64, postID: Int64, now: Date) async throws
    /// One entry per requested id; `ViewerState.none` where the user never touched the post.
    func viewerStates(userID: Int64, postIDs: [Int64]) async throws -> [Int64: ViewerState]

    /// Appends tags the post does not carry yet (ignoring case); blanks are dropped.
    func addTags(postID: Int64, tags: [String]) async throws
    /// Case-insensitive; removing a tag the post does not carry is not an error.
    func removeTag(postID: Int64, tag: String) async throws
    func addFlag(postID: Int64, flag: String) async throws
    func removeFlag(postID: Int64, flag: String) async throws
    /// Tags of ready posts with how many ready posts carry each; count descending, then name.
    func tagCounts() async throws -> [TagCount]
    /// Each post's tags as `{id, name}` (count 0), in the post's order.
    func tagRefs(postIDs: [Int64]) async throws -> [Int64: [TagCount]]
    func flagRefs(postIDs: [Int64]) async throws -> [Int64: [TagCount]]
    /// Ready posts the user favorited in the libraries they may see (only `library`, when
    /// given; not granted: `StoreError.notFound`), newest favorite first. `next` is nil on the last page.
    func favorites(userID: Int64, library: Int64?, after: FavoritesCursor?, limit: Int) async throws -> (posts: [Post], next: FavoritesCursor?)
}

extension SocialStore {
    /// Over every library the user may see.
    public func favorites(userID: Int64, after: FavoritesCursor?, limit: Int) async throws -> (posts: [Post], next: FavoritesCursor?) {
        try await favorites(userID: userID, library: nil, after: after, limit: limit)
    }
}
