import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// Browse, Discover, shelves and collections keep to the libraries granted to the viewer, like
/// the feed and search (`LibraryScopeTests`), and the detail names the post's collections.
@Suite("Library scope in the catalog")
struct LibraryCatalogScopeTests {
    func json(_ client: some TestClientProtocol, _ path: String, _ key: String, status: HTTPResponse.Status = .ok) async throws -> [String: Any] {
        let answer = try await client.send(.get, path, key: key)
        #expect(answer.status == status, "\(path) → \(answer.status)")
        return (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
    }

    static func ids(_ object: [String: Any]) -> Set<Int64> {
        Set(((object["items"] as? [[String: Any]]) ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value })
    }

    @Test func aMemberBrowsesDiscoversAndListsCollectionsOfGrantedLibrariesOnly() async throws {
        let server = try await TestServer()
        let family = try await server.store.createLibrary(name: "Family", now: Date())
        let home = try await server.publishVideo(name: "homeclip", tags: ["shared"])
        let secret = try await server.publishVideo(name: "secretclip", tags: ["shared"], libraryID: family.id)
        let mixed = try await server.store.createCollection(name: "Mixed", postIDs: [secret.id, home.id], createdBy: server.owner.id, now: Date())
        let hidden = try await server.store.createCollection(name: "Hidden", postIDs: [secret.id], createdBy: server.owner.id, now: Date())
        let (owner, member) = (server.ownerKey, server.memberKey)
        try await server.application().test(.router) { client in
            // Owners see both libraries; library= narrows.
            #expect(Self.ids(try await json(client, "/api/v1/browse", owner)) == [home.id, secret.id])
            #expect(Self.ids(try await json(client, "/api/v1/browse?library=\(family.id)", owner)) == [secret.id])
            #expect(Self.ids(try await json(client, "/api/v1/shelves/new", owner)) == [home.id, secret.id])

            // The member: library 1 only, everywhere; the other library is not found.
            #expect(Self.ids(try await json(client, "/api/v1/browse", member)) == [home.id])
            #expect(Self.ids(try await json(client, "/api/v1/browse?tags=shared", member)) == [home.id])
            for sort in ["newest", "posted", "duration", "rating"] {
                #expect(Self.ids(try await json(client, "/api/v1/browse?sort=\(sort)", member)) == [home.id], "\(sort)")
            }
            #expect(Self.ids(try await json(client, "/api/v1/shelves/new", member)) == [home.id])
            #expect(Self.ids(try await json(client, "/api/v1/shelves/collection-\(mixed.id)", member)) == [home.id])
            #expect(Self.ids(try await json(client, "/api/v1/shelves/collection-\(hidden.id)", member)).isEmpty)
            for path in ["/api/v1/browse?library=\(family.id)", "/api/v1/discover?library=\(family.id)", "/api/v1/shelves/new?library=\(family.id)",
                         "/api/v1/collections?library=\(family.id)", "/api/v1/collections/\(mixed.id)?library=\(family.id)",
                         "/api/v1/collections/\(hidden.id)"] {
                _ = try await json(client, path, member, status: .notFound)
            }
            let discover = try await json(client, "/api/v1/discover", member)
            let shelves = (discover["shelves"] as? [[String: Any]]) ?? []
            #expect(!shelves.isEmpty)
            for shelf in shelves { #expect(Self.ids(shelf).isSubset(of: [home.id]), "\(shelf["id"] ?? "")") }
            #expect(!shelves.contains { $0["id"] as? String == "collection-\(hidden.id)" })

            // Collections: counted over what the member may see; one holding nothing of theirs is left out.
            let list = try await json(client, "/api/v1/collections", member)
            let collections = (list["collections"] as? [[String: Any]]) ?? []
            #expect(collections.map { $0["name"] as? String } == ["Mixed"])
            #expect((collections.first?["count"] as? NSNumber)?.intValue == 1)
            let page = try await json(client, "/api/v1/collections/\(mixed.id)", member)
            #expect(Self.ids(page) == [home.id] && (page["count"] as? NSNumber)?.intValue == 1)
            let ownersList = try await json(client, "/api/v1/collections", owner)
            #expect(((ownersList["collections"] as? [[String: Any]]) ?? []).map { $0["name"] as? String } == ["Hidden", "Mixed"])

            // The detail names the post's collections.
            let detail = try decode(APIVideoDetail.self, try await client.send(.get, "/api/v1/videos/\(home.id)", key: member).body)
            #expect(detail.collections == [APIVideoDetail.CollectionRef(id: mixed.id, name: "Mixed")])
            let secretDetail = try decode(APIVideoDetail.self, try await client.send(.get, "/api/v1/videos/\(secret.id)", key: owner).body)
            #expect(secretDetail.collections.map(\.name) == ["Hidden", "Mixed"] && secretDetail.libraryId == family.id)
        }
    }
}
