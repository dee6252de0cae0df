import Foundation
import Hummingbird
import ReelModels
import ReelStore

/// Libraries: separate sets of posts, each granted to some members. Owners see and manage
/// every library; a member lists only the libraries granted to them and never learns who
/// else is granted one.
struct LibrariesController {
    let libraries: any LibraryGrantStore
    let accounts: any AccountStore
    let now: @Sendable () -> Date

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/libraries", access: .user, "The libraries this user may see, with their post counts (owners: members too)") { _, context in
            let user = try context.requireUser()
            let all = try await libraries.libraries()
            let visible = user.role == .owner ? all : all.filter { $0.members.contains(user.id) }
            return try Response.json(APILibraryList(libraries: visible.map { Self.wire($0, for: user) }), context: context)
        }
        routes.on(.post, "/api/v1/libraries", access: .owner, "Create a library (name)") { request, context in
            let user = try context.requireOwner()
            let body = try await request.decodeJSON(APILibraryCreateRequest.self, context: context)
            let library = try await libraries.createLibrary(name: body.name, now: now())
            return try Response.json(Self.wire(library, for: user), status: .created, context: context)
        }
        routes.on(.put, "/api/v1/libraries/{id}", access: .owner, "Rename a library, replace who is granted it, and/or set whether it keeps archived stories (name, members, keep_archived_stories)") { request, context in
            let user = try context.requireOwner()
            guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
                throw APIError.badRequest("the library id must be a positive integer")
            }
            let body = try await request.decodeJSON(APILibraryUpdateRequest.self, context: context)
            guard try await libraries.library(id: id) != nil else { throw APIError.notFound("library \(id)") }
            if let members = body.members {
                guard members.count <= APILibraryUpdateRequest.maxMembers else {
                    throw APIError.badRequest("at most \(APILibraryUpdateRequest.maxMembers) members")
                }
                for member in Set(members) where try await accounts.user(id: member) == nil {
                    throw APIError.badRequest("there is no user \(member)")
                }
            }
            var library = try await libraries.library(id: id)
            if let name = body.name { library = try await libraries.renameLibrary(id: id, name: name) }
            if let members = body.members { library = try await libraries.setMembers(libraryID: id, userIDs: members) }
            if let keep = body.keepArchivedStories { library = try await libraries.setKeepArchivedStories(libraryID: id, keep: keep) }
            guard let library else { throw APIError.notFound("library \(id)") }
            return try Response.json(Self.wire(library, for: user), context: context)
        }
    }

    static func wire(_ library: LibraryRecord, for user: User) -> APILibrary {
        APILibrary(
            id: library.id, name: library.name, postCount: library.postCount, members: user.role == .owner ? library.members : nil,
            keepArchivedStories: library.keepArchivedStories
        )
    }
}
