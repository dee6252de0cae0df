import Foundation
import Hummingbird
import ReelLibrary
import ReelModels
import ReelStorage
import ReelStore

/// The owner's changes to a post: its description and tags, and deleting it.
extension VideoController {
    func registerEditing(_ routes: APIRoutes) {
        routes.on(.put, "/api/v1/videos/{id}", access: .owner, "Edit a post's description and/or tags (tags replace the set)") { request, context in
            let user = try context.requireOwner()
            let body = try await request.decodeJSON(APIVideoEditRequest.self, context: context)
            if let description = body.description, description.count > APIVideoEditRequest.maxDescriptionLength {
                throw APIError.badRequest("a description is at most \(APIVideoEditRequest.maxDescriptionLength) characters")
            }
            var tags = try body.tags.map { tags throws(APIError) -> [String] in
                guard tags.count <= APIVideoEditRequest.maxTags else { throw APIError.badRequest("send at most \(APIVideoEditRequest.maxTags) tags") }
                return tags.isEmpty ? [] : try Self.validNames(tags, what: "tag")
            }
            let post = try await readyPost(context)
            // A #tag typed into the description is a tag, as a caption's hashtags are on import
            // (the description links it to the tag's page, which must not come up empty).
            if let description = body.description, case let hashtags = Hashtags.find(in: description), !hashtags.isEmpty {
                tags = TagList.normalize((tags ?? post.metadata.tags) + hashtags)
            }
            // The search index follows through the v8 triggers on posts and post_tag_ids.
            try await library.editPost(id: post.id, description: body.description.map { Optional($0) }, tags: tags)
            guard let edited = try await library.post(id: post.id) else { throw APIError.notFound("video \(post.id)") }
            return try Response.json(try await detail(edited, userID: user.id), context: context)
        }
        routes.on(.delete, "/api/v1/videos/{id}", access: .owner, "Delete a post: its media, its source if no other post uses it, everyone's state of it") { _, context in
            _ = try context.requireOwner()
            let id = try Self.postID(context)
            // Any status: an owner also clears away failed or stuck posts (see `PostRemoval`).
            guard try await PostRemoval(library: library, storage: storage, sources: sources).remove(postID: id) else {
                throw APIError.notFound("video \(id)")
            }
            return HTTPResponse.Status.noContent
        }
    }

    func detail(_ post: Post, userID: Int64) async throws -> APIVideoDetail {
        APIVideoDetail(
            video: try await present(post, userID: userID),
            title: PostTitle.shown(description: post.metadata.description, shortcode: post.metadata.shortcode, folderName: post.folderName),
            libraryId: post.libraryID,
            collections: try await collections.collections(containing: post.id).map { APIVideoDetail.CollectionRef(id: $0.id, name: $0.name) }
        )
    }
}
