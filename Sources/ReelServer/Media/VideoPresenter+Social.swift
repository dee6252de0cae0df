import Foundation
import ReelModels
import ReelStore

extension VideoPresenter {
    /// Presents a batch with its tags, flags and the viewer's state, loaded in one query each
    /// for the whole batch rather than per post.
    /// Items whose store already read their refs with the page (the feed) cost no extra query.
    func present(_ items: [FeedItem], social: any SocialStore, now: Date) async throws -> [APIVideo] {
        let missingTags = items.filter { $0.tagRefs == nil }.map(\.post.id)
        let missingFlags = items.filter { $0.flagRefs == nil }.map(\.post.id)
        let tags = missingTags.isEmpty ? [:] : try await social.tagRefs(postIDs: missingTags)
        let flags = missingFlags.isEmpty ? [:] : try await social.flagRefs(postIDs: missingFlags)
        return items.map { item in
            present(
                item.post, viewer: item.viewer,
                tags: (item.tagRefs ?? tags[item.post.id] ?? []).map { APITagRef(id: $0.id, name: $0.name) },
                flags: (item.flagRefs ?? flags[item.post.id] ?? []).map { APITagRef(id: $0.id, name: $0.name) },
                now: now
            )
        }
    }

    func present(_ posts: [Post], userID: Int64, social: any SocialStore, now: Date) async throws -> [APIVideo] {
        let viewers = try await social.viewerStates(userID: userID, postIDs: posts.map(\.id))
        let items = posts.map { FeedItem(post: $0, viewer: viewers[$0.id] ?? ViewerState.none) }
        return try await present(items, social: social, now: now)
    }
}
