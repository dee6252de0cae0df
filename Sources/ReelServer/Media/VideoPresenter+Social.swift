import Foundation
import ReelModels
import ReelStore

extension VideoPresenter {
    /// Presents a batch with its tags, flags and the viewer's state, loaded in one query each
    /// for the whole batch rather than per post.
    func present(_ items: [FeedItem], social: any SocialStore, now: Date) async throws -> [APIVideo] {
        let ids = items.map(\.post.id)
        let tags = try await social.tagRefs(postIDs: ids)
        let flags = try await social.flagRefs(postIDs: ids)
        return items.map { item in
            present(
                item.post, viewer: item.viewer,
                tags: (tags[item.post.id] ?? []).map { APITagRef(id: $0.id, name: $0.name) },
                flags: (flags[item.post.id] ?? []).map { APITagRef(id: $0.id, name: $0.name) },
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
