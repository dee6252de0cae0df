import Foundation
import Hummingbird
import ReelLibrary
import ReelModels
import ReelStorage
import ReelStore

/// The poster's own routes: who saw an item, keeping it as a post, deleting it, the archive.
extension StoriesController {
    func registerPosterRoutes(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/stories/items/{id}/viewers", access: .user, "Who saw one of your story items, newest first (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let item = try await postersItem(context, user: user)
            let query = request.uri.queryParameters
            let limit = try FeedController.limit(from: query, default: Self.defaultLimit, maximum: Self.maxLimit)
            let listing = StoryCursorCodec.Listing.viewers(postID: item.id)
            let after = try cursors.decode(query["cursor"].map(String.init), as: StoryViewersCursor.self, for: listing)
            let page = try await stories.storyViewers(postID: item.id, after: after, limit: limit)
            return try Response.json(APIStoryViewers(
                viewers: page.viewers.map { APIStoryViewer(user: $0.name, seenAt: VideoPresenter.iso8601($0.seenAt), liked: $0.liked) },
                nextCursor: page.next.map { cursors.encode($0, for: listing) }
            ), context: context)
        }
        routes.on(.post, "/api/v1/stories/items/{id}/keep", access: .user, "Keep one of your story items as a post (it joins the library and is never swept)") { _, context in
            let user = try context.requireUser()
            let item = try await postersItem(context, user: user)
            try await stories.keepStory(postID: item.id)
            guard let kept = try await stories.storyItem(postID: item.id, viewerID: user.id) else {
                throw APIError.notFound("story item \(item.id)")
            }
            return try Response.json(presenter.item(kept, for: user, now: now()), context: context)
        }
        routes.on(.delete, "/api/v1/stories/items/{id}", access: .user, "Delete one of your story items (the server owner: anyone's) with its media") { _, context in
            let user = try context.requireUser()
            let id = try Self.itemID(context)
            guard let item = try await stories.storyItem(postID: id, viewerID: user.id) else { throw APIError.notFound("story item \(id)") }
            guard item.userID == user.id || user.role == .owner else {
                throw APIError.forbidden("only its poster or the server's owner can delete a story item")
            }
            guard try await removal.remove(postID: id) else { throw APIError.notFound("story item \(id)") }
            return HTTPResponse.Status.noContent
        }
        routes.on(.get, "/api/v1/stories/archive", access: .user, "Your own story items, live and expired, newest first (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let limit = try FeedController.limit(from: query, default: Self.defaultLimit, maximum: Self.maxLimit)
            let listing = StoryCursorCodec.Listing.archive(userID: user.id)
            let after = try cursors.decode(query["cursor"].map(String.init), as: StoryArchiveCursor.self, for: listing)
            let page = try await stories.storyArchive(viewerID: user.id, after: after, limit: limit)
            let now = now()
            return try Response.json(APIStoryArchive(
                items: page.items.map { presenter.item($0, for: user, now: now) },
                nextCursor: page.next.map { cursors.encode($0, for: listing) }
            ), context: context)
        }
    }

    /// The item in the path if the user posted it: 404 when it is no story item they may see,
    /// 403 when someone else posted it.
    private func postersItem(_ context: AppRequestContext, user: User) async throws -> StoryItem {
        let id = try Self.itemID(context)
        guard let item = try await stories.storyItem(postID: id, viewerID: user.id) else { throw APIError.notFound("story item \(id)") }
        guard item.userID == user.id else { throw APIError.forbidden("only the poster of a story item can do this") }
        return item
    }
}
