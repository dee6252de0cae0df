import Foundation
import Hummingbird
import NIOCore
import ReelModels
import ReelStore

/// Collections: every user reads them, only owners change them. A collection's page lists its
/// ready posts in collection order, as feed items (the collection's shelf).
struct CollectionController {
    let collections: any CollectionStore
    let catalog: any CatalogStore
    let social: any SocialStore
    let presenter: VideoPresenter
    let cursors: CatalogCursorCodec
    let encodedItems: EncodedItemCache
    let resume: ResumeRule
    let now: @Sendable () -> Date

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/collections", access: .user, "Every collection, by name") { _, context in
            let list = try await collections.collections().map(wire)
            return try Response.json(APICollectionList(collections: list), context: context)
        }
        routes.on(.post, "/api/v1/collections", access: .owner, "Create a collection, optionally with posts in order") { request, context in
            let user = try context.requireOwner()
            let body = try await request.decodeJSON(APICollectionCreateRequest.self, context: context)
            let created = try await collections.createCollection(name: body.name, postIDs: body.postIds ?? [], createdBy: user.id, now: now())
            return try Response.json(wire(created), status: .created, context: context)
        }
        routes.on(.get, "/api/v1/collections/{id}", access: .user, "A collection and a page of its posts in its order (cursor, limit)") { request, context in
            let user = try context.requireUser()
            let collection = try await existing(context)
            let parameters = request.uri.queryParameters
            let limit = try CatalogPaging.limit(parameters)
            let shelf = Shelf.collection(collection.id)
            let listing = CatalogController.listing(shelf)
            let after = try cursors.position(parameters, listing: listing)
            let (items, next) = try await catalog.shelf(shelf, userID: user.id, resume: resume, after: after, limit: limit)
            // The collection's own members, then the page's.
            var buffer = ByteBuffer(bytes: try context.responseEncoder.encode(wire(collection)))
            buffer.moveWriterIndex(to: buffer.writerIndex - 1)
            buffer.writeStaticString(",")
            try FeedPageBody(presenter: presenter, cache: encodedItems).writeMembers(
                try await VideoPresenter.withRefs(items, social: social),
                nextCursor: try next.map { try cursors.encode($0, listing: listing) }, now: now(), into: &buffer
            )
            buffer.writeStaticString("}")
            return Response.json(body: buffer)
        }
        routes.on(.put, "/api/v1/collections/{id}", access: .owner, "Rename a collection and/or replace its posts and their order") { request, context in
            let id = try Self.id(context)
            let body = try await request.decodeJSON(APICollectionUpdateRequest.self, context: context)
            let updated = try await collections.updateCollection(id: id, name: body.name, postIDs: body.postIds, now: now())
            return try Response.json(wire(updated), context: context)
        }
        routes.on(.post, "/api/v1/collections/{id}/items", access: .owner, "Append a post to a collection (already in: unchanged)") { request, context in
            let id = try Self.id(context)
            let body = try await request.decodeJSON(APICollectionItemRequest.self, context: context)
            guard body.postId > 0 else { throw APIError.badRequest("post_id must be a positive integer") }
            return try Response.json(wire(try await collections.addToCollection(id: id, postIDs: [body.postId], now: now())), context: context)
        }
        routes.on(.delete, "/api/v1/collections/{id}/items/{post_id}", access: .owner, "Remove a post from a collection") { _, context in
            let id = try Self.id(context)
            guard let text = context.parameters.get("post_id"), let postID = Int64(text), postID > 0 else {
                throw APIError.badRequest("the post id must be a positive integer")
            }
            _ = try await collections.removeFromCollection(id: id, postIDs: [postID], now: now())
            return HTTPResponse.Status.noContent
        }
        routes.on(.delete, "/api/v1/collections/{id}", access: .owner, "Delete a collection (its posts stay)") { _, context in
            try await collections.deleteCollection(id: try Self.id(context))
            return HTTPResponse.Status.noContent
        }
    }

    /// Names and ids for Discover's collection shelves.
    static func shelves(_ collections: any CollectionStore) -> @Sendable () async throws -> [(id: Int64, name: String)] {
        { try await collections.collections().map { (id: $0.id, name: $0.name) } }
    }

    private static func id(_ context: AppRequestContext) throws(APIError) -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIError.badRequest("the collection id must be a positive integer")
        }
        return id
    }

    private func existing(_ context: AppRequestContext) async throws -> PostCollection {
        let id = try Self.id(context)
        guard let collection = try await collections.collection(id: id) else { throw APIError.notFound("collection \(id)") }
        return collection
    }

    private func wire(_ collection: PostCollection) -> APICollection {
        let cover = collection.coverPost.flatMap { post -> APIImage? in
            guard let media = post.media, let file = media.poster ?? media.thumbnail ?? media.images.first?.variants.first else { return nil }
            return presenter.image(post.id, file)
        }
        return APICollection(
            id: collection.id, name: collection.name, count: collection.count, cover: cover,
            createdAt: collection.createdAt, updatedAt: collection.updatedAt
        )
    }
}
