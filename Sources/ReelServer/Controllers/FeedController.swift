import Foundation
import Hummingbird
import ReelModels
import ReelForYou
import ReelStore

/// The feed in its three modes (For You, the endless shuffle, Latest), and seed 000's
/// `/api/feed/random`.
struct FeedController {
    let feed: any FeedStore
    /// For You, ranked above the store.
    let forYou: ForYouFeed
    /// Whether For You is a person's default, remembered per node (`FeatureContext.forYouReadiness`).
    let readiness: ForYouReadiness
    let social: any SocialStore
    let presenter: VideoPresenter
    let cursors: FeedCursorCodec
    let now: @Sendable () -> Date
    /// Encoded items shared by every viewer in a token window (the feed's largest cost was encoding).
    let encodedItems: EncodedItemCache
    var orderByRandomBaseline: (@Sendable (Int64, Int) async throws -> [FeedItem])?

    static let defaultLimit = 10
    static let maxLimit = 50

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/feed", access: .user, "A page of the feed: for_you, shuffle or latest (mode, cursor, limit, tags, exclude_tags, kind, favorites, min_rating, library)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let filter = try Self.filter(from: query)
            let limit = try Self.limit(from: query)
            let requested = try Self.mode(from: query)
            // The cursor's mode, else the one asked for, else the person's default.
            var state: FeedCursorState?
            if let cursor = query["cursor"].map(String.init), !cursor.isEmpty {
                let decoded = try cursors.decodeState(cursor, filter: filter)
                if let requested, requested != decoded.mode {
                    throw APIError.invalidCursor("the cursor belongs to the \(decoded.mode.rawValue) feed, not \(requested.rawValue)")
                }
                state = decoded
            }
            let mode: FeedMode
            if let state {
                mode = state.mode
            } else {
                mode = try await defaultMode(requested, userID: user.id)
            }
            let served = try await page(mode: mode, state: state, userID: user.id, filter: filter, limit: limit)
            let body = try FeedPageBody(presenter: presenter, cache: encodedItems).encode(
                try await VideoPresenter.withRefs(served.items, social: social),
                nextCursor: served.next.map { cursors.encode($0, filter: filter) },
                reasons: served.reasons, mode: mode,
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

    /// Registered only for `make bench` (see `SystemSettings.benchmarkBaselines`).
    func registerBaseline(_ routes: APIRoutes) {
        guard let baseline = orderByRandomBaseline else { return }
        routes.on(.get, "/bench/feed-order-by-random", access: .owner, "Benchmark baseline: the feed as ORDER BY random()") { request, context in
            let user = try context.requireOwner()
            let items = try await baseline(user.id, try Self.limit(from: request.uri.queryParameters))
            return try Response.json(APIFeedPage(items: try await present(items), nextCursor: nil), context: context)
        }
    }

    /// One page in `mode`, from `state` (nil: the mode's first page); For You's items come with
    /// their reasons by post id.
    private func page(
        mode: FeedMode, state: FeedCursorState?, userID: Int64, filter: FeedFilter, limit: Int
    ) async throws -> (items: [FeedItem], reasons: [Int64: FeedPageBody.Reason]?, next: FeedCursorState?) {
        switch mode {
        case .latest:
            let after: LatestPosition? = if case .latest(let position) = state { position } else { nil }
            let page = try await feed.latestPage(userID: userID, filter: filter, after: after, limit: limit)
            return (page.items, nil, page.next.map { .latest($0) })
        case .forYou:
            let position: ForYouPosition = if case .forYou(let position) = state { position } else { .start(seed: UInt64.random(in: 1...UInt64.max)) }
            let page = try await forYou.page(userID: userID, filter: filter, position: position, limit: limit, now: now())
            let reasons = Dictionary(page.items.map { ($0.item.post.id, FeedPageBody.Reason(text: $0.reason, kind: $0.reasonKind)) }) { first, _ in first }
            return (page.items.map(\.item), reasons, page.next.map { .forYou($0) })
        case .shuffle:
            let position: FeedPosition = if case .shuffle(let position) = state { position } else { .start(seed: UInt64.random(in: 1...UInt64.max)) }
            let page = try await feed.feedPage(userID: userID, filter: filter, position: position, limit: limit)
            return (page.items, nil, page.next.map { .shuffle($0) })
        }
    }

    /// The mode asked for, else For You once the person has sent enough signals, else the shuffle.
    private func defaultMode(_ requested: FeedMode?, userID: Int64) async throws -> FeedMode {
        if let requested { return requested }
        return try await readiness.isReady(userID: userID) ? .forYou : .shuffle
    }

    /// `mode`: absent or empty for the default, else one of `FeedMode`, or a 400.
    static func mode(from query: Parameters) throws(APIError) -> FeedMode? {
        guard let text = query["mode"], !text.isEmpty else { return nil }
        guard let mode = FeedMode(rawValue: String(text)) else {
            throw APIError.badRequest("mode must be one of \(FeedMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
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
