import Foundation
import ReelModels
import ReelStore

extension VideoPresenter {
    /// Presents a batch with its tags, flags and the viewer's state, loaded in one query each
    /// for the whole batch rather than per post.
    func present(_ items: [FeedItem], social: any SocialStore, now: Date) async throws -> [APIVideo] {
        try await Self.withRefs(items, social: social).map { present($0, now: now) }
    }

    func present(_ posts: [Post], userID: Int64, social: any SocialStore, now: Date) async throws -> [APIVideo] {
        let viewers = try await social.viewerStates(userID: userID, postIDs: posts.map(\.id))
        let items = posts.map { FeedItem(post: $0, viewer: viewers[$0.id] ?? ViewerState.none) }
        return try await present(items, social: social, now: now)
    }

    /// One item whose refs are loaded (see `withRefs`).
    func present(_ item: FeedItem, now: Date) -> APIVideo {
        present(
            item.post, viewer: item.viewer,
            tags: (item.tagRefs ?? []).map { APITagRef(id: $0.id, name: $0.name) },
            flags: (item.flagRefs ?? []).map { APITagRef(id: $0.id, name: $0.name) },
            now: now
        )
    }

    /// The items with their tag and flag refs filled in: one query each for the batch, and
    /// none when the store already read them with the page (the feed).
    static func withRefs(_ items: [FeedItem], social: any SocialStore) async throws -> [FeedItem] {
        let missingTags = items.filter { $0.tagRefs == nil }.map(\.post.id)
        let missingFlags = items.filter { $0.flagRefs == nil }.map(\.post.id)
        if missingTags.isEmpty && missingFlags.isEmpty { return items }
        let tags = missingTags.isEmpty ? [:] : try await social.tagRefs(postIDs: missingTags)
        let flags = missingFlags.isEmpty ? [:] : try await social.flagRefs(postIDs: missingFlags)
        return items.map { item in
            var item = item
            item.tagRefs = item.tagRefs ?? tags[item.post.id] ?? []
            item.flagRefs = item.flagRefs ?? flags[item.post.id] ?? []
            return item
        }
    }
}
