import Foundation
import Hummingbird
import ReelModels
import ReelStore

/// The endless shuffled feed, and seed 000's `/api/feed/random`.
struct FeedController {
    let feed: any FeedStore
    let social: any SocialStore
    let presenter: VideoPresenter
    let cursors: FeedCursorCodec
    let now: @Sendable () -> Date
    /// Encoded items shared by every viewer in a token window (the feed's largest cost was encoding).
    let encodedItems = EncodedItemCache()
    var orderByRandomBaseline: (@Sendable (Int64, Int) async throws -> [FeedItem])?

    static let defaultLimit = 10
    static let maxLimit = 50

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/feed", access: .user, "A page of the endless shuffled feed (cursor, limit, tags, exclude_tags, kind, favorites, min_rating, library)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let filter = try Self.filter(from: query)
            let limit = try Self.limit(from: query)
            let position: FeedPosition
            if let cursor = query["cursor"].map(String.init), !cursor.isEmpty {
                position = try cursors.decode(cursor, filter: filter)
            } else {
                position = .start(seed: UInt64.random(in: 1...UInt64.max))
            }
            let (items, next) = try await feed.feedPage(userID: user.id, filter: filter, position: position, limit: limit)
            let body = try FeedPageBody(presenter: presenter, cache: encodedItems).encode(
                try await VideoPresenter.withRefs(items, social: social),
                nextCursor: next.map { cursors.encode($0, filter: filter) },
                now: now()
            )
            return Response.json(body: body)
        }
        // Seed 000 asks for a batch of random videos and decodes a bare array.
        routes.on(.get, "/api/feed/random", access: .user, "Seed-000 compatibility: a random batch of videos as a JSON array") { _, context in
            let user = try context.requireUser()
            let (items, _) = try await feed.feedPage(
                userID: user.id, filter: FeedFilter(), position: .start(seed: UInt64.random(in: 1...UInt64.max)), limit: Self.defaultLimit
            )
            return try Response.json(try await present(items), context: context)
        }
    }

    /// Registered only for `make bench` (see `ServerConfiguration.benchmarkBaselines`).
    func registerBaseline(_ routes: APIRoutes) {
        guard let baseline = orderByRandomBaseline else { return }
        routes.on(.get, "/bench/feed-order-by-random", access: .owner, "Benchmark baseline: the feed as ORDER BY random()") { request, context in
            let user = try context.requireOwner()
            let items = try await baseline(user.id, try Self.limit(from: request.uri.queryParameters))
            return try Response.json(APIFeedPage(items: try await present(items), nextCursor: nil), context: context)
        }
    }

    private func present(_ items: [FeedItem]) async throws -> [APIVideo] {
        try await presenter.present(items, social: social, now: now())
    }

    static func filter(from query: Parameters) throws(APIError) -> FeedFilter {
        do throws(FeedFilterError) {
            return try FeedFilter { name in query[Substring(name)].map(String.init) }
        } catch {
            throw APIError.badRequest(error.message)
        }
    }

    /// The `library` parameter of a listing (nil: every library the user may see), or a 400.
    static func library(from query: Parameters) throws(APIError) -> Int64? {
        do throws(FeedFilterError) {
            return try FeedFilter.library(query["library"].map(String.init))
        } catch {
            throw APIError.badRequest(error.message)
        }
    }

    /// `limit` of a page: `defaultLimit` when absent, else 1 to `maximum` or a 400.
    static func limit(from query: Parameters, default defaultLimit: Int = defaultLimit, maximum: Int = maxLimit) throws(APIError) -> Int {
        guard let text = query["limit"], !text.isEmpty else { return defaultLimit }
        guard let value = Int(text), (1...maximum).contains(value) else {
            throw APIError.badRequest("limit must be an integer from 1 to \(maximum)")
        }
        return value
    }
}
