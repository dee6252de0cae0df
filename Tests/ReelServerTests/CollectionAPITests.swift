import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// A collection page as the wire carries it: the collection's fields and a page of posts.
struct WireCollectionPage: Decodable {
    var id: Int64
    var name: String
    var count: Int
    var cover: APIImage?
    var items: [APIVideo]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case id, name, count, cover, items
        case nextCursor = "next_cursor"
    }
}

@Suite("Collection API")
struct CollectionAPITests {
    func server() async throws -> (TestServer, [Int64]) {
        let server = try await TestServer()
        var ids: [Int64] = []
        for name in ["one", "two", "three", "four"] { ids.append(try await server.publishVideo(name: name).id) }
        return (server, ids)
    }

    @Test func ownersCurateAndMembersRead() async throws {
        let (server, ids) = try await server()
        try await server.application().test(.router) { client async throws in
            let create = try await client.send(.post, "/api/v1/collections", key: server.ownerKey, json: #"{"name":"Trips","post_ids":[\#(ids[2]),\#(ids[0])]}"#)
            #expect(create.status == .created)
            let created = try decode(APICollection.self, create.body)
            #expect(created.name == "Trips" && created.count == 2 && created.cover?.url.hasPrefix("/img/") == true)
            #expect(String(decoding: create.body, as: UTF8.self).contains("\"created_at\""))

            let appended = try await client.send(.post, "/api/v1/collections/\(created.id)/items", key: server.ownerKey, json: #"{"post_id":\#(ids[3])}"#)
            #expect(appended.status == .ok)
            #expect(try decode(APICollection.self, appended.body).count == 3)
            let again = try await client.send(.post, "/api/v1/collections/\(created.id)/items", key: server.ownerKey, json: #"{"post_id":\#(ids[2])}"#)
            #expect(try decode(APICollection.self, again.body).count == 3, "already in: unchanged")

            // Members read the list and the pages, in collection order, to the end.
            let list = try decode(APICollectionList.self, try await client.send(.get, "/api/v1/collections", key: server.memberKey).body)
            #expect(list.collections.map(\.id) == [created.id])
            #expect(try await pages(client, server, created.id) == ["three", "one", "four"])

            let reorder = try await client.send(.put, "/api/v1/collections/\(created.id)", key: server.ownerKey,
                                                json: #"{"name":"Road trips","post_ids":[\#(ids[3]),\#(ids[1]),\#(ids[2])]}"#)
            #expect(reorder.status == .ok)
            #expect(try decode(APICollection.self, reorder.body).name == "Road trips")
            #expect(try await pages(client, server, created.id) == ["four", "two", "three"])

            let remove = try await client.send(.delete, "/api/v1/collections/\(created.id)/items/\(ids[1])", key: server.ownerKey)
            #expect(remove.status == .noContent)
            #expect(try await pages(client, server, created.id) == ["four", "three"])

            // Its shelf on Discover, titled by its name, and its own shelf route.
            let discover = try decode(WireDiscover.self, try await client.send(.get, "/api/v1/discover", key: server.memberKey).body)
            let shelf = try #require(discover.shelves.last)
            #expect(shelf.id == "collection-\(created.id)" && shelf.title == "Road trips" && shelf.kind == "collection")
            #expect(shelf.items.map(\.folderName) == ["four", "three"])
            let direct = try decode(WireShelf.self, try await client.send(.get, "/api/v1/shelves/collection-\(created.id)", key: server.memberKey).body)
            #expect(direct.items.map(\.folderName) == ["four", "three"])

            let delete = try await client.send(.delete, "/api/v1/collections/\(created.id)", key: server.ownerKey)
            #expect(delete.status == .noContent)
            #expect(try await client.send(.get, "/api/v1/collections/\(created.id)", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/shelves/collection-\(created.id)", key: server.memberKey).status == .notFound)
        }
    }

    /// Every page of a collection, as folder names, checking that none repeats.
    func pages(_ client: any TestClientProtocol, _ server: TestServer, _ id: Int64) async throws -> [String] {
        var names: [String] = []
        var uri = "/api/v1/collections/\(id)?limit=1"
        for _ in 0..<20 {
            let response = try await client.send(.get, uri, key: server.memberKey)
            #expect(response.status == .ok)
            let page = try decode(WireCollectionPage.self, response.body)
            #expect(page.id == id)
            names += page.items.map(\.folderName)
            guard let next = page.nextCursor else { break }
            uri = "/api/v1/collections/\(id)?limit=1&cursor=\(next)"
        }
        #expect(Set(names).count == names.count)
        return names
    }

    @Test func membersCannotWrite() async throws {
        let (server, ids) = try await server()
        let collection = try await server.store.createCollection(name: "Kept", postIDs: [ids[0]], createdBy: server.owner.id, now: Date())
        try await server.application().test(.router) { client async throws in
            let writes: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/api/v1/collections", #"{"name":"Mine"}"#),
                (.put, "/api/v1/collections/\(collection.id)", #"{"name":"Renamed"}"#),
                (.post, "/api/v1/collections/\(collection.id)/items", #"{"post_id":\#(ids[1])}"#),
                (.delete, "/api/v1/collections/\(collection.id)/items/\(ids[0])", nil),
                (.delete, "/api/v1/collections/\(collection.id)", nil),
            ]
            for (method, path, body) in writes {
                let response = try await client.send(method, path, key: server.memberKey, json: body)
                #expect(response.status == .forbidden, "\(method) \(path) → \(response.status)")
                #expect(try decode(APIErrorEnvelope.self, response.body).error.code == "forbidden")
            }
        }
        let after = try #require(try await server.store.collection(id: collection.id))
        #expect(after.name == "Kept" && after.count == 1)
    }

    @Test func badRequestsAreRefusedWithoutChanges() async throws {
        let (server, ids) = try await server()
        let collection = try await server.store.createCollection(name: "Kept", postIDs: [ids[0]], createdBy: nil, now: Date())
        try await server.application().test(.router) { client async throws in
            let cases: [(HTTPRequest.Method, String, String?, HTTPResponse.Status)] = [
                (.post, "/api/v1/collections", #"{"name":"  "}"#, .badRequest),
                (.post, "/api/v1/collections", #"{"name":"kept"}"#, .conflict),
                (.post, "/api/v1/collections", #"{"name":"New","post_ids":[999]}"#, .notFound),
                (.post, "/api/v1/collections", #"{"post_ids":[1]}"#, .badRequest),
                (.put, "/api/v1/collections/\(collection.id)", #"{"name":"Other","post_ids":[\#(ids[1]),999]}"#, .notFound),
                (.put, "/api/v1/collections/999", #"{"name":"Other"}"#, .notFound),
                (.post, "/api/v1/collections/\(collection.id)/items", #"{"post_id":0}"#, .badRequest),
                (.delete, "/api/v1/collections/x/items/1", nil, .badRequest),
                (.delete, "/api/v1/collections/\(collection.id)/items/x", nil, .badRequest),
                (.get, "/api/v1/collections/\(collection.id)?limit=61", nil, .badRequest),
                (.get, "/api/v1/collections/\(collection.id)?cursor=abc", nil, .badRequest),
            ]
            for (method, path, body, status) in cases {
                let response = try await client.send(method, path, key: server.ownerKey, json: body)
                #expect(response.status == status, "\(method) \(path) \(body ?? "") → \(response.status)")
            }
        }
        let after = try #require(try await server.store.collection(id: collection.id))
        #expect(after.name == "Kept" && after.count == 1)
        #expect(try await server.store.collections().count == 1)
    }
}
