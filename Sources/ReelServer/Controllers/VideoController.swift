import Foundation
import Hummingbird
import ReelModels
import ReelStorage
import ReelStore

/// One post: read it, and the per-user and library mutations on it. Seed 000's folder-name
/// routes answer 200 with the new state, which is what that client checks.
struct VideoController {
    let library: any LibraryStore
    let grants: any LibraryGrantStore
    let social: any SocialStore
    let storage: any MediaStorage
    let sources: (any SourceStorage)?
    let presenter: VideoPresenter
    let now: @Sendable () -> Date

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/videos/{id}", access: .user, "One post with signed media URLs, its title, library, collections and captions") { _, context in
            let user = try context.requireUser()
            let post = try await readyPost(context)
            return try Response.json(try await detail(post, userID: user.id), context: context)
        }
        registerEditing(routes)
        routes.on(.post, "/api/v1/videos/{id}/favorite", access: .user, "Favorite a post") { _, context in
            try await setFavorite(try await readyPost(context), true, context)
        }
        routes.on(.delete, "/api/v1/videos/{id}/favorite", access: .user, "Unfavorite a post") { _, context in
            try await setFavorite(try await readyPost(context), false, context)
        }
        routes.on(.put, "/api/v1/videos/{id}/rating", access: .user, "Rate a post from 0 to 5") { request, context in
            let body = try await request.decodeJSON(APIRatingRequest.self, context: context)
            return try await setRating(try await readyPost(context), body.rating, context)
        }
        routes.on(.put, "/api/v1/videos/{id}/position", access: .user, "Remember where playback stopped (null clears)") { request, context in
            let user = try context.requireUser()
            let body = try await request.decodeJSON(APIPositionRequest.self, context: context)
            if let seconds = body.seconds, !(seconds.isFinite && seconds >= 0) { throw APIError.badRequest("seconds must be a non-negative number") }
            let post = try await readyPost(context)
            try await social.setPosition(userID: user.id, postID: post.id, seconds: body.seconds, now: now())
            return HTTPResponse.Status.noContent
        }
        routes.on(.post, "/api/v1/videos/{id}/seen", access: .user, "Mark a post as seen by this user") { _, context in
            let user = try context.requireUser()
            let post = try await readyPost(context)
            try await social.markSeen(userID: user.id, postID: post.id, now: now())
            return HTTPResponse.Status.noContent
        }
        routes.on(.post, "/api/v1/videos/{id}/tags", access: .user, "Add tags to a post") { request, context in
            let body = try await request.decodeJSON(APITagsRequest.self, context: context)
            let tags = try Self.validNames(body.tags, what: "tag")
            let post = try await readyPost(context)
            try await social.addTags(postID: post.id, tags: tags)
            return try Response.json(try await present(post, userID: try context.requireUser().id), context: context)
        }
        routes.on(.delete, "/api/v1/videos/{id}/tags/{tag}", access: .user, "Remove a tag from a post") { _, context in
            let post = try await readyPost(context)
            let tag = try Self.validNames([context.parameters.get("tag") ?? ""], what: "tag")[0]
            try await social.removeTag(postID: post.id, tag: tag)
            return try Response.json(try await present(post, userID: try context.requireUser().id), context: context)
        }
        routes.on(.post, "/api/v1/videos/{id}/flags", access: .user, "Flag a post (e.g. broken, duplicate)") { request, context in
            let body = try await request.decodeJSON(APIFlagRequest.self, context: context)
            let flag = try Self.validNames([body.flag], what: "flag")[0]
            let post = try await readyPost(context)
            try await social.addFlag(postID: post.id, flag: flag)
            return try Response.json(try await present(post, userID: try context.requireUser().id), context: context)
        }
        routes.on(.delete, "/api/v1/videos/{id}/flags/{flag}", access: .user, "Remove a flag from a post") { _, context in
            let post = try await readyPost(context)
            let flag = try Self.validNames([context.parameters.get("flag") ?? ""], what: "flag")[0]
            try await social.removeFlag(postID: post.id, flag: flag)
            return try Response.json(try await present(post, userID: try context.requireUser().id), context: context)
        }
        routes.on(.post, "/api/videos/{folder}/favorite", access: .user, "Seed-000 compatibility: set favorite by folder name") { request, context in
            let body = try await request.decodeJSON(APIFavoriteRequest.self, context: context)
            return try await setFavorite(try await readyPost(folder: context), body.isFavorited, context)
        }
        routes.on(.post, "/api/videos/{folder}/rating", access: .user, "Seed-000 compatibility: set rating by folder name") { request, context in
            let body = try await request.decodeJSON(APIRatingRequest.self, context: context)
            return try await setRating(try await readyPost(folder: context), body.rating, context)
        }
    }

    private func setFavorite(_ post: Post, _ favorited: Bool, _ context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        try await social.setFavorite(userID: user.id, postID: post.id, favorited: favorited, now: now())
        return try await state(post, user: user, context: context)
    }

    private func setRating(_ post: Post, _ rating: Int, _ context: AppRequestContext) async throws -> Response {
        guard (0...5).contains(rating) else { throw APIError.badRequest("rating must be an integer from 0 to 5") }
        let user = try context.requireUser()
        try await social.setRating(userID: user.id, postID: post.id, rating: rating, now: now())
        return try await state(post, user: user, context: context)
    }

    private func state(_ post: Post, user: User, context: AppRequestContext) async throws -> Response {
        let viewer = try await social.viewerStates(userID: user.id, postIDs: [post.id])[post.id] ?? .none
        return try Response.json(APIViewerState(id: post.id, isFavorited: viewer.isFavorited, rating: viewer.rating), context: context)
    }

    func present(_ post: Post, userID: Int64) async throws -> APIVideo {
        try await presenter.present([post], userID: userID, social: social, now: now())[0]
    }

    /// A ready post in a library the user is granted; anything else is "not found", so a post
    /// in another library cannot even be told apart from one that does not exist.
    func readyPost(_ context: AppRequestContext) async throws -> Post {
        let id = try Self.postID(context)
        guard let post = try await library.post(id: id), post.status == .ready, try await isVisible(post, context) else {
            throw APIError.notFound("video \(id)")
        }
        return post
    }

    static func postID(_ context: AppRequestContext) throws(APIError) -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIError.badRequest("the video id must be a positive integer")
        }
        return id
    }

    private func isVisible(_ post: Post, _ context: AppRequestContext) async throws -> Bool {
        try await grants.scope(userID: try context.requireUser().id, requested: nil).contains(post.libraryID)
    }

    private func readyPost(folder context: AppRequestContext) async throws -> Post {
        guard let folder = context.parameters.get("folder"), Self.isSlug(folder) else {
            throw APIError.badRequest("the folder name is not valid")
        }
        guard let post = try await library.post(folderName: folder), post.status == .ready, try await isVisible(post, context) else {
            throw APIError.notFound("video \(folder)")
        }
        return post
    }

    static func isSlug(_ text: String) -> Bool {
        (1...80).contains(text.count) && text.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
    }

    static func validNames(_ names: [String], what: String) throws(APIError) -> [String] {
        let cleaned = names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard !cleaned.isEmpty, cleaned.count <= 50 else { throw APIError.badRequest("send 1 to 50 \(what)s") }
        for name in cleaned where name.isEmpty || name.count > 64 || name.contains(where: { $0.isNewline || $0 == "," }) {
            throw APIError.badRequest("a \(what) must be 1 to 64 characters without commas or line breaks")
        }
        return cleaned
    }
}
