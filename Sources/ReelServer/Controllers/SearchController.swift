import Foundation
import Hummingbird
import ReelModels
import ReelStore

/// Full-text search, answered like a feed page (`FeedPageBody`, the viewer's state) plus the
/// searched terms; and each user's recent searches.
struct SearchController {
    let search: any SearchStore
    let social: any SocialStore
    let presenter: VideoPresenter
    let cursors: SearchCursorCodec
    /// The feed's cache: a post found by search encodes the same as in the feed.
    let encodedItems: EncodedItemCache
    let now: @Sendable () -> Date

    static let defaultLimit = 24
    static let maxLimit = 60
    static let summary = "Search ready posts (q: words, \"phrases\", tag:name, -tag:name, @uploader; cursor, limit, library)"

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/search", access: .user, Self.summary) { request, context in
            let user = try context.requireUser()
            let parameters = request.uri.queryParameters
            let text = parameters["q"].map(String.init) ?? ""
            let limit = try FeedController.limit(from: parameters, default: Self.defaultLimit, maximum: Self.maxLimit)
            let library = try FeedController.library(from: parameters)
            // A cursor belongs to its query and its library.
            let context = library.map { "\(text)\u{1F}library=\($0)" } ?? text
            var offset = 0
            if let cursor = parameters["cursor"].map(String.init), !cursor.isEmpty {
                offset = try cursors.decode(cursor, query: context)
                guard offset + limit <= search.maxSearchResults else {
                    throw APIError.invalidCursor("the cursor points past the last result served")
                }
            }
            // Blank, or nothing but punctuation: a page with nothing on it, like a search that finds nothing.
            let query = SearchQuery.parse(text)
            let results = try await search.search(userID: user.id, library: library, query: query, offset: offset, limit: limit)
            let body = try FeedPageBody(presenter: presenter, cache: encodedItems).encode(
                try await VideoPresenter.withRefs(results.items, social: social),
                nextCursor: results.hasMore ? cursors.encode(offset: offset + limit, query: context) : nil,
                terms: results.terms,
                now: now()
            )
            return Response.json(body: body)
        }

        routes.on(.get, "/api/v1/me/searches", access: .user, "This user's recent searches, newest first") { _, context in
            let user = try context.requireUser()
            let searches = try await search.recentSearches(userID: user.id)
            return try Response.json(
                APIRecentSearches(searches: searches.map { APIRecentSearch(query: $0.query, searchedAt: $0.searchedAt) }), context: context
            )
        }
        routes.on(.post, "/api/v1/me/searches", access: .user, "Remember a search this user acted on") { request, context in
            let user = try context.requireUser()
            let body = try await request.decodeJSON(APIRecentSearchRequest.self, context: context)
            let query = body.query.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !query.isEmpty, query.count <= RecentSearchLimits.maxRecentSearchLength else {
                throw APIError.badRequest("query must be 1 to \(RecentSearchLimits.maxRecentSearchLength) characters and not blank")
            }
            try await search.recordSearch(userID: user.id, query: query, now: now())
            return HTTPResponse.Status.noContent
        }
        routes.on(.delete, "/api/v1/me/searches", access: .user, "Forget this user's recent searches") { _, context in
            try await search.clearRecentSearches(userID: try context.requireUser().id)
            return HTTPResponse.Status.noContent
        }
    }

}
