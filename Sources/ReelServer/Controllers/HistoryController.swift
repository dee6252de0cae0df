import Foundation
import Hummingbird
import ReelForYou
import ReelModels
import ReelStore

/// Profile's lists of what For You learned (docs/recommendations-api.md, "History and
/// hidden"): the watch history with clear-all and remove-one, the "not interested" posts and
/// the hidden uploaders, each undoable. Everything is the signed-in person's own.
struct HistoryController {
    let events: any EventStore
    let social: any SocialStore
    /// Told when history is cleared or forgotten: fewer signals may take For You away as the default.
    let readiness: ForYouReadiness
    let presenter: VideoPresenter
    let cursors: ProfileListCursorCodec
    let now: @Sendable () -> Date

    static let defaultLimit = 30
    static let maxLimit = 100
    /// Longest uploader name a path may carry.
    static let maxUploaderLength = 200

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/me/history", access: .user, "Posts this user watched, newest first (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let limit = try FeedController.limit(from: query, default: Self.defaultLimit, maximum: Self.maxLimit)
            let after = try cursors.decode(query["cursor"].map(String.init), for: .history(userID: user.id))
            let page = try await events.history(userID: user.id, after: after, limit: limit)
            let videos = try await present(page.entries.compactMap(\.item))
            return try Response.json(APIHistoryPage(
                items: page.entries.map { entry in
                    APIHistoryEntry(
                        postID: entry.postID, watchedAt: Self.timestamp(entry.watchedAt), views: entry.views,
                        longViews: entry.longViews, skips: entry.skips, watchedMs: entry.watchedMs, video: videos[entry.postID]
                    )
                },
                nextCursor: page.next.map { cursors.encode($0, for: .history(userID: user.id)) }
            ), context: context)
        }
        routes.on(.delete, "/api/v1/me/history", access: .user, "Forget this user's watch history (events, signals, affinities)") { _, context in
            let user = try context.requireUser()
            defer { readiness.changed(userID: user.id) }
            try await events.clearHistory(userID: user.id)
            return HTTPResponse.Status.noContent
        }
        routes.on(.delete, "/api/v1/me/history/{post_id}", access: .user, "Forget one post of this user's watch history") { _, context in
            let user = try context.requireUser()
            defer { readiness.changed(userID: user.id) }
            try await events.forgetHistory(userID: user.id, postID: try Self.postID(context))
            return HTTPResponse.Status.noContent
        }
        routes.on(.get, "/api/v1/me/not-interested", access: .user, "Posts this user marked not interested, newest first (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let query = request.uri.queryParameters
            let limit = try FeedController.limit(from: query, default: Self.defaultLimit, maximum: Self.maxLimit)
            let after = try cursors.decode(query["cursor"].map(String.init), for: .notInterested(userID: user.id))
            let page = try await events.notInterested(userID: user.id, after: after, limit: limit)
            let videos = try await present(page.entries.compactMap(\.item))
            return try Response.json(APINotInterestedPage(
                items: page.entries.map { APINotInterestedEntry(postID: $0.postID, at: Self.timestamp($0.at), video: videos[$0.postID]) },
                nextCursor: page.next.map { cursors.encode($0, for: .notInterested(userID: user.id)) }
            ), context: context)
        }
        routes.on(.delete, "/api/v1/me/not-interested/{post_id}", access: .user, "Undo not interested: the post may be served again") { _, context in
            try await events.undoNotInterested(userID: try context.requireUser().id, postID: try Self.postID(context))
            return HTTPResponse.Status.noContent
        }
        routes.on(.get, "/api/v1/me/hidden-uploaders", access: .user, "Uploaders this user hid, newest first") { _, context in
            let entries = try await events.hiddenUploaders(userID: try context.requireUser().id)
            return try Response.json(APIHiddenUploaders(
                uploaders: entries.map { APIHiddenUploader(uploader: $0.uploader, at: Self.timestamp($0.at)) }
            ), context: context)
        }
        routes.on(.delete, "/api/v1/me/hidden-uploaders/{uploader}", access: .user, "Show an uploader's posts again (the name as listed, percent-encoded)") { _, context in
            try await events.unhideUploader(userID: try context.requireUser().id, uploader: try Self.uploader(context))
            return HTTPResponse.Status.noContent
        }
    }

    /// The items as the feed presents them, by post id.
    private func present(_ items: [FeedItem]) async throws -> [Int64: APIVideo] {
        guard !items.isEmpty else { return [:] }
        let videos = try await presenter.present(items, social: social, now: now())
        return Dictionary(zip(items.map(\.post.id), videos), uniquingKeysWith: { first, _ in first })
    }

    /// ISO 8601 in UTC with the milliseconds the client sent: a stored instant is a binary
    /// fraction (…31.2259999), which a formatter would truncate to the millisecond below.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
        let seconds = (milliseconds / 1_000).rounded(.down)
        // "2026-11-25T12:00:00Z": UTC, no fraction.
        let whole = Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle())
        return whole.dropLast() + String(format: ".%03dZ", Int(milliseconds - seconds * 1_000))
    }

    static func postID(_ context: AppRequestContext) throws(APIError) -> Int64 {
        guard let text = context.parameters.get("post_id"), let id = Int64(text), id > 0 else {
            throw APIError.badRequest("the post id must be a positive integer")
        }
        return id
    }

    static func uploader(_ context: AppRequestContext) throws(APIError) -> String {
        let raw = context.parameters.get("uploader") ?? ""
        let name = (raw.removingPercentEncoding ?? raw).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= maxUploaderLength else {
            throw APIError.badRequest("an uploader name is 1 to \(maxUploaderLength) characters")
        }
        return name
    }
}

/// The cursors of Profile's lists: the store's keyset position sealed with the list and the
/// person, so a cursor of another list or another person is a 400 `invalid_cursor`.
struct ProfileListCursorCodec: Sendable {
    private let signer: CursorSigner

    init(secret: Data) {
        signer = CursorSigner(purpose: "reelhouse profile list cursor", secret: secret)
    }

    enum Listing {
        case history(userID: Int64)
        case notInterested(userID: Int64)

        var context: String {
            switch self {
            case .history(let userID): "history/\(userID)"
            case .notInterested(let userID): "not-interested/\(userID)"
            }
        }
    }

    func encode(_ position: RecentPostCursor, for listing: Listing) -> String {
        // Two numbers: encoding cannot fail.
        signer.seal((try? JSONEncoder().encode(position)) ?? Data(), context: listing.context)
    }

    /// Nil for an absent or empty cursor (the first page).
    func decode(_ text: String?, for listing: Listing) throws(APIError) -> RecentPostCursor? {
        guard let text, !text.isEmpty else { return nil }
        let payload = try signer.open(text, context: listing.context, mismatch: "the cursor was altered or belongs to another listing")
        guard let position = try? JSONDecoder().decode(RecentPostCursor.self, from: payload) else {
            throw APIError.invalidCursor("the cursor is malformed")
        }
        return position
    }
}
