import Foundation
import Hummingbird
import ReelLibrary
import ReelModels
import ReelStorage
import ReelStore

/// Stories (issue 15, `docs/stories-api.md`): the tray, a person's live items, seen and liked
/// marks, and the poster's own routes (viewers, keep, delete, archive). Every read keeps to
/// the viewer's libraries (the store applies the scope), so an item of another library is a
/// 404 exactly like one that does not exist.
struct StoriesController {
    let stories: any StoryStore
    let removal: PostRemoval
    let presenter: StoryPresenter
    let cursors: StoryCursorCodec
    let now: @Sendable () -> Date

    static let defaultLimit = 20
    static let maxLimit = 50
    /// Ids one seen batch may carry.
    static let maxSeenBatch = 500
    /// Longest name `GET /api/v1/stories/{username}` looks up.
    static let maxNameLength = 100

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/stories", access: .user, "The stories tray: people with live stories, unseen first, then newest (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let limit = try FeedController.limit(from: query, default: Self.defaultLimit, maximum: Self.maxLimit)
            let after = try cursors.decode(query["cursor"].map(String.init), as: StoryTrayCursor.self, for: .tray)
            let (entries, next) = try await tray(for: user, after: after, limit: limit, now: now())
            return try Response.json(APIStoryTray(
                tray: entries.map { presenter.entry($0, for: user) },
                nextCursor: next.map { cursors.encode($0, for: .tray) }
            ), context: context)
        }
        routes.on(.get, "/api/v1/stories/{username}", access: .user, "One person's live stories, oldest first, each ready to play") { _, context in
            let user = try context.requireUser()
            let name = try Self.username(context)
            let now = now()
            let items = try await stories.liveStories(viewerID: user.id, author: name, now: now)
            guard let newest = items.last else { throw APIError.notFound("no live stories of \(name)") }
            return try Response.json(APIStoryUserPage(
                user: newest.author, isMe: StoryPresenter.isMe(newest.author.lowercased(), user),
                firstUnseen: items.firstIndex { !$0.seen } ?? 0, items: items.map { presenter.item($0, for: user, now: now) }
            ), context: context)
        }
        routes.on(.post, "/api/v1/stories/seen", access: .user, "Mark story items seen, in a batch (idempotent; items out of reach are ignored)") { request, context in
            let user = try context.requireUser()
            let body = try await request.decodeJSON(APIStorySeenRequest.self, context: context)
            guard (1...Self.maxSeenBatch).contains(body.items.count) else {
                throw APIError.badRequest("send 1 to \(Self.maxSeenBatch) item ids, not \(body.items.count)")
            }
            guard body.items.allSatisfy({ $0 > 0 }) else { throw APIError.badRequest("item ids are positive integers") }
            let result = try await stories.markStoriesSeen(viewerID: user.id, postIDs: body.items, now: now())
            return try Response.json(APIStorySeenResponse(accepted: result.accepted, ignored: result.ignored), context: context)
        }
        for (method, liked) in [(HTTPRequest.Method.post, true), (.delete, false)] {
            routes.on(method, "/api/v1/stories/items/{id}/like", access: .user, liked ? "Like a story item (idempotent)" : "Unlike a story item (idempotent)") { _, context in
                let user = try context.requireUser()
                let id = try Self.itemID(context)
                do {
                    try await stories.setStoryLike(viewerID: user.id, postID: id, liked: liked, now: now())
                } catch StoreError.notFound {
                    throw APIError.notFound("story item \(id)")
                }
                return try Response.json(APIStoryLike(id: id, liked: liked), context: context)
            }
        }
        registerPosterRoutes(routes)
    }

    /// The name in the path (percent-decoded: a username may hold a space): a username or an
    /// account name, not blank, not too long.
    static func username(_ context: AppRequestContext) throws(APIError) -> String {
        let raw = context.parameters.get("username") ?? ""
        let name = (raw.removingPercentEncoding ?? raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= maxNameLength else {
            throw APIError.badRequest("a name is 1 to \(maxNameLength) characters")
        }
        return name
    }

    static func itemID(_ context: AppRequestContext) throws(APIError) -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIError.badRequest("the story item id must be a positive integer")
        }
        return id
    }
}

extension StoriesController {
    /// A tray page with the viewer's own story first, as on Instagram: on the first page, in
    /// place of one of the others (a page still holds at most `limit`), and on no later page.
    func tray(for user: User, after: StoryTrayCursor?, limit: Int, now: Date) async throws -> ([StoryTrayEntry], StoryTrayCursor?) {
        let isMine = { (entry: StoryTrayEntry) in StoryPresenter.isMe(entry.authorKey, user) }
        guard after == nil, let own = try await ownTrayEntry(user, now: now) else {
            let page = try await stories.storyTray(viewerID: user.id, now: now, after: after, limit: limit)
            return (page.entries.filter { !isMine($0) }, page.next)
        }
        guard limit > 1 else {
            // A page of one is the viewer's own; the others follow from the top of the order.
            let peek = try await stories.storyTray(viewerID: user.id, now: now, after: nil, limit: 2)
            return ([own], peek.entries.contains { !isMine($0) } ? Self.beforeEveryone : nil)
        }
        let page = try await stories.storyTray(viewerID: user.id, now: now, after: nil, limit: limit - 1)
        return ([own] + page.entries.filter { !isMine($0) }, page.next)
    }

    /// A position before every entry of the order (unseen first, newest first, then by name).
    static let beforeEveryone = StoryTrayCursor(allSeen: false, latestAt: .greatestFiniteMagnitude, authorKey: "")

    /// The viewer's own tray entry, from their live items (nil when they have none).
    func ownTrayEntry(_ user: User, now: Date) async throws -> StoryTrayEntry? {
        let items = try await stories.liveStories(viewerID: user.id, author: user.name, now: now)
        guard let newest = items.last else { return nil }
        return StoryTrayEntry(
            author: newest.author, authorKey: newest.author.lowercased(), itemsCount: items.count,
            firstUnseen: items.firstIndex { !$0.seen } ?? 0, allSeen: items.allSatisfy(\.seen), latestAt: newest.postedAt, newest: newest.post
        )
    }
}
