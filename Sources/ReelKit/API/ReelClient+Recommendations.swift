import Foundation
import ReelModels

/// For You (docs/recommendations-api.md): watch events, the feed's modes, and what a person can
/// see and undo in Profile — their watch history, "not interested" posts and hidden uploaders.
extension ReelClient {
    // MARK: Events

    /// Sends one batch (at most `APIEventBatch.maxCount` events). A resent event (same
    /// `eventID`) is counted in `duplicates` and stored once, so a batch whose answer was lost
    /// can simply be sent again. The whole batch is refused (`.rejected(400, …)`, the message
    /// naming the event's index) when any event breaks a rule; `.rateLimited` when the person
    /// sent too many events this minute.
    @discardableResult
    public func sendEvents(_ events: [WatchEvent]) async throws(ReelAPIError) -> APIEventReceipt {
        try await json(APIEventReceipt.self, "POST", "/api/v1/events", body: try encode(APIEventBatch(events: events)))
    }

    // MARK: Feed

    /// One page of the feed in `mode` (nil: the server picks — For You once the person has
    /// enough signals, else shuffle; the page's `mode` says which). A cursor belongs to the mode
    /// and filter it came from.
    public func feedPage(
        mode: FeedMode?, cursor: String? = nil, limit: Int? = nil, query: FeedQuery = FeedQuery()
    ) async throws(ReelAPIError) -> APIFeedPage {
        let items = [
            URLQueryItem(name: "mode", value: mode?.rawValue), URLQueryItem(name: "cursor", value: cursor),
            URLQueryItem(name: "limit", value: limit.map(String.init)),
        ] + query.queryItems
        return try await json(APIFeedPage.self, "GET", "/api/v1/feed", query: items)
    }

    // MARK: History

    /// The posts the person watched, most recently watched first.
    public func history(cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APIHistoryPage {
        try await json(APIHistoryPage.self, "GET", "/api/v1/me/history", query: Self.paging(cursor, limit, nil))
    }

    /// Forgets every watch event and what For You learned from them (hidden lists stay).
    public func clearHistory() async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/me/history")
    }

    /// Forgets one post's events; `.notFound` when it is not in the history.
    public func removeFromHistory(postID: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/me/history/\(postID)")
    }

    // MARK: Not interested

    /// Posts the person said they are not interested in, newest first. A post is filed here
    /// by sending a `not_interested` event.
    public func notInterested(cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APINotInterestedPage {
        try await json(APINotInterestedPage.self, "GET", "/api/v1/me/not-interested", query: Self.paging(cursor, limit, nil))
    }

    /// Undoes "not interested": the post may be served again. `.notFound` when it was not listed.
    public func undoNotInterested(postID: Int64) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/me/not-interested/\(postID)")
    }

    // MARK: Hidden uploaders

    /// Uploaders whose posts are never served to the person, newest first. One is hidden by
    /// sending a `hide_uploader` event about one of their posts.
    public func hiddenUploaders() async throws(ReelAPIError) -> [APIHiddenUploader] {
        try await json(APIHiddenUploaders.self, "GET", "/api/v1/me/hidden-uploaders").uploaders
    }

    /// Shows an uploader's posts again (`uploader` as `hiddenUploaders()` lists it).
    /// `.notFound` when it was not hidden.
    public func unhideUploader(_ uploader: String) async throws(ReelAPIError) {
        _ = try await send("DELETE", "/api/v1/me/hidden-uploaders/\(Self.pathComponent(uploader))")
    }
}
