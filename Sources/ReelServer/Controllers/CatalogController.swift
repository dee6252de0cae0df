import Foundation
import Hummingbird
import NIOCore
import ReelModels
import ReelStore

/// Browse (the whole library in an order, filtered), Discover and its shelves: pages of
/// feed-style items, written exactly like feed pages (`FeedPageBody`, the feed's item cache).
struct CatalogController {
    let catalog: any CatalogStore
    let social: any SocialStore
    let presenter: VideoPresenter
    let cursors: CatalogCursorCodec
    let encodedItems: EncodedItemCache
    let resume: ResumeRule
    /// The collections (their shelves); nil leaves collection shelves out.
    let collectionShelves: (@Sendable () async throws -> [(id: Int64, name: String)])?
    let now: @Sendable () -> Date
    let popularTags = PopularTags()

    /// Tag shelves on Discover: the most used tags.
    static let tagShelves = 6

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/browse", access: .user, "Every post in an order (sort, order) with filters that combine (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let parameters = request.uri.queryParameters
            let query = try BrowseParameters.query(parameters)
            let limit = try CatalogPaging.limit(parameters)
            let listing = BrowseParameters.canonical(query)
            let after = try cursors.position(parameters, listing: listing)
            let (items, next) = try await catalog.browse(userID: user.id, query: query, after: after, limit: limit)
            let body = try FeedPageBody(presenter: presenter, cache: encodedItems).encode(
                try await VideoPresenter.withRefs(items, social: social),
                nextCursor: try next.map { try cursors.encode($0, listing: listing) },
                now: now()
            )
            return Response.json(body: body)
        }
        routes.on(.get, "/api/v1/discover", access: .user, "The Discover shelves, each with its first posts and its own cursor; empty shelves left out (library)") { request, context in
            let user = try context.requireUser()
            let library = try FeedController.library(from: request.uri.queryParameters)
            var buffer = ByteBuffer()
            buffer.writeStaticString("{\"shelves\":[")
            var first = true
            for (shelf, title) in try await shelves() {
                let (items, next) = try await catalog.shelf(
                    shelf, userID: user.id, library: library, resume: resume, after: nil, limit: CatalogPaging.shelfPreview
                )
                if items.isEmpty { continue }
                if !first { buffer.writeStaticString(",") }
                first = false
                try await write(shelf, library: library, title: title, items: items, next: next, into: &buffer)
            }
            buffer.writeStaticString("]}")
            return Response.json(body: buffer)
        }
        routes.on(.get, "/api/v1/shelves/{id}", access: .user, "One shelf as a full grid (cursor, limit, library)") { request, context in
            let user = try context.requireUser()
            let id = context.parameters.get("id") ?? ""
            guard let shelf = Shelf(id: id) else { throw APIError.notFound("there is no shelf \(id.prefix(64))") }
            let parameters = request.uri.queryParameters
            let limit = try CatalogPaging.limit(parameters)
            let library = try FeedController.library(from: parameters)
            let after = try cursors.position(parameters, listing: Self.listing(shelf, library: library))
            let title = try await title(of: shelf)
            let (items, next) = try await catalog.shelf(shelf, userID: user.id, library: library, resume: resume, after: after, limit: limit)
            var buffer = ByteBuffer()
            try await write(shelf, library: library, title: title, items: items, next: next, into: &buffer)
            return Response.json(body: buffer)
        }
    }

    /// What a shelf's cursors are sealed with: the shelf and the library asked for.
    static func listing(_ shelf: Shelf, library: Int64?) -> String { "shelf:" + shelf.id + librarySuffix(library) }

    /// Added to a listing's cursor context only when a library was asked for, so the cursors
    /// of unscoped listings read as they did before libraries.
    static func librarySuffix(_ library: Int64?) -> String { library.map { ";library=\($0)" } ?? "" }

    /// Discover's shelves in order, with their titles (empty ones are dropped by the caller).
    private func shelves() async throws -> [(Shelf, String)] {
        var result = Shelf.fixed.map { ($0, Self.fixedTitle($0)) }
        result += try await popularTags.tags(limit: Self.tagShelves, now: now(), catalog: catalog).map { (Shelf.tag($0.id), "#" + $0.name) }
        if let collectionShelves {
            result += try await collectionShelves().map { (Shelf.collection($0.id), $0.name) }
        }
        return result
    }

    private func title(of shelf: Shelf) async throws -> String {
        switch shelf {
        case .tag(let id):
            guard let name = try await catalog.tagName(id: id) else { throw APIError.notFound("there is no shelf tag-\(id)") }
            return "#" + name
        case .collection(let id):
            guard let name = try await collectionShelves?().first(where: { $0.id == id })?.name else {
                throw APIError.notFound("there is no shelf collection-\(id)")
            }
            return name
        default:
            return Self.fixedTitle(shelf)
        }
    }

    static func fixedTitle(_ shelf: Shelf) -> String {
        switch shelf {
        case .continueWatching: "Continue watching"
        case .new: "New"
        case .topRated: "Top rated"
        case .mostFavorited: "Most favorited"
        case .unseen: "Unseen"
        case .tag(let id): "tag-\(id)"
        case .collection(let id): "collection-\(id)"
        }
    }

    /// `{"id","title","kind","items":[…],"next_cursor"}`.
    private func write(
        _ shelf: Shelf, library: Int64?, title: String, items: [FeedItem], next: CatalogPosition?, into buffer: inout ByteBuffer
    ) async throws {
        buffer.writeStaticString("{\"id\":")
        buffer.writeBytes(FeedPageBody.jsonString(shelf.id))
        buffer.writeStaticString(",\"title\":")
        buffer.writeBytes(FeedPageBody.jsonString(title))
        buffer.writeStaticString(",\"kind\":")
        buffer.writeBytes(FeedPageBody.jsonString(shelf.kind))
        buffer.writeStaticString(",")
        try FeedPageBody(presenter: presenter, cache: encodedItems).writeMembers(
            try await VideoPresenter.withRefs(items, social: social),
            nextCursor: try next.map { try cursors.encode($0, listing: Self.listing(shelf, library: library)) },
            now: now(), into: &buffer
        )
        buffer.writeStaticString("}")
    }
}
