import Foundation
import Hummingbird
import ReelModels
import ReelStore

/// Library-wide reads: favorites, tags, the current user.
struct LibraryController {
    let social: any SocialStore
    let presenter: VideoPresenter
    let resume: ResumeRule
    let now: @Sendable () -> Date

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/favorites", access: .user, "The user's favorites, newest first (cursor, limit, library)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let limit = try FeedController.limit(from: query)
            let library = try FeedController.library(from: query)
            var after: FavoritesCursor?
            if let text = query["cursor"], !text.isEmpty {
                guard let data = Base64URL.decode(text), let cursor = try? JSONDecoder().decode(FavoritesCursor.self, from: data) else {
                    throw APIError.invalidCursor("the cursor is malformed")
                }
                after = cursor
            }
            let (posts, next) = try await social.favorites(userID: user.id, library: library, after: after, limit: limit)
            let items = try await presenter.present(posts, userID: user.id, social: social, now: now())
            let nextCursor = try next.map { Base64URL.encode(try JSONEncoder().encode($0)) }
            return try Response.json(APIFeedPage(items: items, nextCursor: nextCursor), context: context)
        }
        routes.on(.get, "/api/v1/tags", access: .user, "Every tag on ready posts, with counts") { _, context in
            let counts = try await social.tagCounts().map { APITagCount(id: $0.id, name: $0.name, count: $0.count) }
            return try Response.json(APIList(items: counts), context: context)
        }
        routes.on(.get, "/api/v1/me", access: .user, "The signed-in user and the server's resume rule") { _, context in
            let user = try context.requireUser()
            let rule = APIResumeRule(minDuration: resume.minDuration, minFraction: resume.minFraction, maxFraction: resume.maxFraction)
            return try Response.json(APIMe(id: user.id, name: user.name, role: user.role.rawValue, resume: rule), context: context)
        }
    }
}
