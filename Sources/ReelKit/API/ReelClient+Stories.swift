import Foundation
import ReelModels

/// Stories (docs/stories-api.md): the tray of people, one person's live items, seen and liked
/// state, and the owner's tools (viewers, keep as post, delete, archive).
extension ReelClient {
    /// The most seen-ids one `POST /api/v1/stories/seen` takes.
    public static let storySeenBatchLimit = 500

    /// One page of the tray: people with an unseen item first, then newest first. Pass the
    /// previous page's `nextCursor` to continue.
    public func storyTray(cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APIStoryTray {
        try await json(APIStoryTray.self, "GET", "/api/v1/stories", query: Self.paging(cursor, limit, nil))
    }

    /// A person's live items, oldest first (the order they play in). `.notFound` when they have
    /// nothing live the viewer may see.
    public func stories(of user: String) async throws(ReelAPIError) -> APIStoryUserPage {
        try await json(APIStoryUserPage.self, "GET", "/api/v1/stories/\(Self.pathComponent(user))")
    }

    /// Records items as seen (idempotent: the first time stays). 1…500 ids; ids that are not
    /// story items the viewer may see are counted as ignored, not refused.
    @discardableResult
    public func markStoriesSeen(_ itemIDs: [Int64]) async throws(ReelAPIError) -> APIStorySeenResponse {
        try await json(APIStorySeenResponse.self, "POST", "/api/v1/stories/seen", body: try encode(APIStorySeenRequest(items: itemIDs)))
    }

    /// Likes (`POST`) or unlikes (`DELETE`) an item; idempotent.
    public func setStoryLike(_ liked: Bool, itemID: Int64) async throws(ReelAPIError) -> APIStoryLike {
        try await json(APIStoryLike.self, liked ? "POST" : "DELETE", "/api/v1/stories/items/\(itemID)/like")
    }

    /// Owner only (`.forbidden` for anyone else): who saw the item, newest first.
    public func storyViewers(itemID: Int64, cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APIStoryViewers {
        try await json(APIStoryViewers.self, "GET", "/api/v1/stories/items/\(itemID)/viewers", query: Self.paging(cursor, limit, nil))
    }

    /// Owner only: keeps the item as a post (it joins the library and survives its expiry).
    public func keepStory(itemID: Int64) async throws(ReelAPIError) -> APIStoryItem {
        try await json(APIStoryItem.self, "POST", "/api/v1/stories/items/\(itemID)/keep")
    }

    /// The owner (or a server owner/admin) deletes the item with its post and media.
    public func deleteStory(itemID: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/stories/items/\(itemID)")
    }

    /// The viewer's own items, live and expired, newest first.
    public func storyArchive(cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APIStoryArchive {
        try await json(APIStoryArchive.self, "GET", "/api/v1/stories/archive", query: Self.paging(cursor, limit, nil))
    }
}
