import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelLibrary
import ReelModels
import ReelPipeline
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// Libraries through the API: a member never sees a post of a library not granted to them,
/// through any route; owners see every library.
@Suite("Library scope")
struct LibraryScopeTests {
    struct Fixture {
        var server: TestServer
        var home: Post
        var secret: Post
        var family: Int64
    }

    /// One post in library 1 ("Library", granted to everyone) and one in "Family", granted to nobody.
    func fixture(_ client: some TestClientProtocol, _ server: TestServer) async throws -> Fixture {
        let created = try await client.send(.post, "/api/v1/libraries", key: server.ownerKey, json: #"{"name":"Family"}"#)
        #expect(created.status == .created)
        let family = try decode(APILibrary.self, created.body)
        #expect(family.name == "Family" && family.members == [] && family.postCount == 0)
        let home = try await server.publishVideo(name: "homeclip", tags: ["shared"])
        let secret = try await server.publishVideo(name: "secretclip", tags: ["shared"], libraryID: family.id)
        return Fixture(server: server, home: home, secret: secret, family: family.id)
    }

    func ids(_ client: some TestClientProtocol, _ path: String, _ key: String) async throws -> Set<Int64> {
        let answer = try await client.send(.get, path, key: key)
        #expect(answer.status == .ok, "\(path) → \(answer.status)")
        return Set(try decode(APIFeedPage.self, answer.body).items.map(\.id))
    }

    func status(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ key: String, json: String? = nil) async throws -> HTTPResponse.Status {
        try await client.send(method, path, key: key, json: json).status
    }

    @Test func aMemberNeverSeesAPostOfALibraryNotGrantedThroughAnyRoute() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        try await server.application().test(.router) { client in
            let f = try await fixture(client, server)
            let (member, secret, family) = (f.server.memberKey, f.secret.id, f.family)
            // Owners see both libraries everywhere.
            #expect(try await ids(client, "/api/v1/feed?limit=50", f.server.ownerKey) == [f.home.id, secret])
            #expect(try await ids(client, "/api/v1/feed?limit=50&library=\(family)", f.server.ownerKey) == [secret])
            #expect(try await ids(client, "/api/v1/search?q=shared", f.server.ownerKey) == [f.home.id, secret])
            #expect(try await status(client, .get, "/api/v1/videos/\(secret)", f.server.ownerKey) == .ok)

            // The member sees library 1 only, and the other library is "not found" wherever it is named.
            #expect(try await ids(client, "/api/v1/feed?limit=50", member) == [f.home.id])
            #expect(try await ids(client, "/api/v1/feed?limit=50&library=1", member) == [f.home.id])
            #expect(try await ids(client, "/api/v1/search?q=shared", member) == [f.home.id])
            #expect(try await ids(client, "/api/v1/search?q=secretclip", member).isEmpty)
            for path in ["/api/v1/feed?library=\(family)", "/api/v1/search?q=shared&library=\(family)", "/api/v1/favorites?library=\(family)",
                         "/api/v1/feed?library=999", "/api/v1/videos/\(secret)"] {
                let answer = try await client.send(.get, path, key: member)
                #expect(answer.status == .notFound, "\(path)")
                #expect(try decode(APIErrorEnvelope.self, answer.body).error.code == "not_found")
            }
            #expect(try await status(client, .get, "/api/v1/feed?library=abc", member) == .badRequest)
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/api/v1/videos/\(secret)/favorite", nil), (.put, "/api/v1/videos/\(secret)/rating", #"{"rating":5}"#),
                (.put, "/api/v1/videos/\(secret)/position", #"{"seconds":1}"#), (.post, "/api/v1/videos/\(secret)/seen", nil),
                (.post, "/api/v1/videos/\(secret)/tags", #"{"tags":["x"]}"#), (.post, "/api/v1/videos/\(secret)/flags", #"{"flag":"x"}"#),
                (.post, "/api/videos/secretclip/favorite", #"{"is_favorited":true}"#),
            ] as [(HTTPRequest.Method, String, String?)] {
                #expect(try await status(client, method, path, member, json: body) == .notFound, "\(method) \(path)")
            }
            // Tags count only the posts the member may see: "secretonly" is not even named.
            try await f.server.store.addTags(postID: secret, tags: ["secretonly"])
            let tags = try decode(APIList<APITagCount>.self, try await client.send(.get, "/api/v1/tags", key: member).body).items
            #expect(tags.map(\.name) == ["shared"] && tags.map(\.count) == [1])
            let ownersTags = try decode(APIList<APITagCount>.self, try await client.send(.get, "/api/v1/tags", key: f.server.ownerKey).body).items
            #expect(Set(ownersTags.map(\.name)) == ["shared", "secretonly"] && ownersTags.first?.count == 2)
            let random = try await client.send(.get, "/api/feed/random", key: member)
            #expect(try decode([APIVideo].self, random.body).map(\.id) == [f.home.id])
            // Nothing the member received carries a media URL of the other library's post.
            let everything = try await client.send(.get, "/api/v1/feed?limit=50", key: member)
            #expect(!String(decoding: everything.body, as: UTF8.self).contains("/\(secret)/"))

            // Libraries: the member lists only what is granted, without who else is.
            let memberList = try decode(APILibraryList.self, try await client.send(.get, "/api/v1/libraries", key: member).body)
            #expect(memberList.libraries.map(\.id) == [1] && memberList.libraries[0].members == nil && memberList.libraries[0].postCount == 1)
            #expect(!String(decoding: try await client.send(.get, "/api/v1/libraries", key: member).body, as: UTF8.self).contains("members"))
            let ownerList = try decode(APILibraryList.self, try await client.send(.get, "/api/v1/libraries", key: f.server.ownerKey).body)
            #expect(ownerList.libraries.map(\.name) == ["Library", "Family"])
            #expect(ownerList.libraries[0].members == [f.server.owner.id, f.server.member.id] && ownerList.libraries[1].members == [])
        }
    }

    @Test func grantingAndRevokingChangesWhatTheMemberSeesAtOnce() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        try await server.application().test(.router) { client in
            let f = try await fixture(client, server)
            let (member, secret, family) = (f.server.memberKey, f.secret.id, f.family)
            let granted = try await client.send(.put, "/api/v1/libraries/\(family)", key: f.server.ownerKey, json: #"{"members":[\#(f.server.member.id)]}"#)
            #expect(granted.status == .ok)
            #expect(try decode(APILibrary.self, granted.body).members == [f.server.member.id])
            #expect(try await ids(client, "/api/v1/feed?limit=50", member) == [f.home.id, secret])
            #expect(try await ids(client, "/api/v1/feed?limit=50&library=\(family)", member) == [secret])
            #expect(try await status(client, .post, "/api/v1/videos/\(secret)/favorite", member) == .ok)
            #expect(try await ids(client, "/api/v1/favorites", member) == [secret])

            // Revoked: the favorite stays stored but is listed nowhere, and the post is gone again.
            #expect(try await status(client, .put, "/api/v1/libraries/\(family)", f.server.ownerKey, json: #"{"members":[]}"#) == .ok)
            #expect(try await ids(client, "/api/v1/favorites", member).isEmpty)
            #expect(try await ids(client, "/api/v1/feed?limit=50", member) == [f.home.id])
            #expect(try await status(client, .get, "/api/v1/videos/\(secret)", member) == .notFound)

            // Taking library 1 away too leaves the member nothing at all.
            #expect(try await status(client, .put, "/api/v1/libraries/1", f.server.ownerKey, json: #"{"members":[\#(f.server.owner.id)]}"#) == .ok)
            #expect(try await ids(client, "/api/v1/feed", member).isEmpty)
            #expect(try await ids(client, "/api/v1/search?q=shared", member).isEmpty)
            #expect(try await status(client, .get, "/api/v1/videos/\(f.home.id)", member) == .notFound)
        }
    }

    @Test func onlyOwnersManageLibrariesAndBadRequestsAre4xx() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        try await server.application().test(.router) { client in
            let f = try await fixture(client, server)
            let owner = f.server.ownerKey
            #expect(try await status(client, .post, "/api/v1/libraries", f.server.memberKey, json: #"{"name":"Mine"}"#) == .forbidden)
            #expect(try await status(client, .put, "/api/v1/libraries/1", f.server.memberKey, json: #"{"name":"Mine"}"#) == .forbidden)
            #expect(try await status(client, .post, "/api/v1/libraries", owner, json: #"{"name":"family"}"#) == .conflict)
            #expect(try await status(client, .post, "/api/v1/libraries", owner, json: #"{"name":"  "}"#) == .badRequest)
            #expect(try await status(client, .post, "/api/v1/libraries", owner, json: #"{}"#) == .badRequest)
            #expect(try await status(client, .put, "/api/v1/libraries/99", owner, json: #"{"name":"X"}"#) == .notFound)
            #expect(try await status(client, .put, "/api/v1/libraries/1", owner, json: #"{"members":[424242]}"#) == .badRequest)
            #expect(try await status(client, .put, "/api/v1/libraries/1", owner, json: #"{"name":"FAMILY"}"#) == .conflict)
            let renamed = try await client.send(.put, "/api/v1/libraries/1", key: owner, json: #"{"name":"Home"}"#)
            #expect(renamed.status == .ok)
            let library = try decode(APILibrary.self, renamed.body)
            #expect(library.name == "Home" && library.postCount == 1 && library.members == [f.server.owner.id, f.server.member.id])
            // A new account is granted library 1 and sees its post.
            let carol = try await f.server.store.createUser(name: "carol", role: .member, passwordHash: "x", now: Date())
            let carolKey = try await f.server.makeKey(for: carol)
            #expect(try await ids(client, "/api/v1/feed", carolKey) == [f.home.id])
        }
    }

    @Test func uploadsGoOnlyToALibraryGrantedToTheUploader() async throws {
        let base = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        var dependencies = base.dependencies
        let uploadStorage = LocalUploadStorage(root: base.root.appendingPathComponent("uploads"))
        dependencies.uploads = UploadDependencies(
            storage: uploadStorage, imports: UploadImports(jobs: base.store, storage: uploadStorage), policy: UploadPolicy()
        )
        let router = buildRouter(configuration: base.configuration, dependencies: dependencies).0
        try await Application(router: router).test(.router) { client in
            let family = try await base.store.createLibrary(name: "Family", now: Date())
            func create(_ key: String, library: String?) async throws -> (status: HTTPResponse.Status, location: String?) {
                var headers: HTTPFields = [HTTPField.Name("Tus-Resumable")!: "1.0.0", HTTPField.Name("Upload-Length")!: "10"]
                var metadata = "filename \(Data("clip.mp4".utf8).base64EncodedString())"
                if let library { metadata += ",library \(Data(library.utf8).base64EncodedString())" }
                headers[HTTPField.Name("Upload-Metadata")!] = metadata
                let answer = try await client.send(.post, "/api/v1/uploads", key: key, headers: headers)
                return (answer.status, answer.headers[.location])
            }
            #expect(try await create(base.memberKey, library: String(family.id)).status == .notFound)
            #expect(try await create(base.memberKey, library: "zero").status == .badRequest)
            #expect(try await create(base.ownerKey, library: "77").status == .notFound)
            // Recorded with the upload: the import reads the library from there.
            let defaulted = try await create(base.memberKey, library: nil)
            #expect(defaulted.status == .created)
            let id = try #require(defaulted.location?.split(separator: "/").last.map(String.init))
            #expect(try uploadStorage.record(id: id)?.metadata["library"] == "1")
            let owners = try await create(base.ownerKey, library: String(family.id))
            #expect(owners.status == .created)
            let ownersID = try #require(owners.location?.split(separator: "/").last.map(String.init))
            #expect(try uploadStorage.record(id: ownersID)?.metadata["library"] == String(family.id))
            try await base.store.grant(libraryID: family.id, userID: base.member.id)
            try await base.store.revoke(libraryID: 1, userID: base.member.id)
            let moved = try await create(base.memberKey, library: nil)
            let movedID = try #require(moved.location?.split(separator: "/").last.map(String.init))
            #expect(try uploadStorage.record(id: movedID)?.metadata["library"] == String(family.id))
        }
    }
}
