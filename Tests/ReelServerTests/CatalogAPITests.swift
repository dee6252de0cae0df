import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// A shelf as the wire carries it.
struct WireShelf: Decodable {
    var id: String
    var title: String
    var kind: String
    var items: [APIVideo]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case id, title, kind, items
        case nextCursor = "next_cursor"
    }
}

struct WireDiscover: Decodable {
    var shelves: [WireShelf]
}

/// Browse, Discover and shelves over HTTP: feed-style pages, cursors that page to the end
/// without repeats, and a 400 naming the parameter for anything that makes no sense.
@Suite("Catalog API")
struct CatalogAPITests {
    /// Titles out of order on purpose; `cats` tags on some.
    func server(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> (TestServer, [String: Int64]) {
        let server = try await TestServer(configure: configure)
        var ids: [String: Int64] = [:]
        for (name, title, tags) in [("m", "The Matrix", ["cats"]), ("v10", "Video 10", []), ("v2", "Video 2", ["cats"]),
                                    ("e", "Élan", []), ("a", "Alien", ["cats", "film"])] {
            let post = try await server.publishVideo(name: name, tags: tags)
            var metadata = post.metadata
            metadata.description = title
            try await server.store.updateMetadata(postID: post.id, metadata: metadata)
            ids[name] = post.id
        }
        return (server, ids)
    }

    /// Every page of `path` (which has no cursor yet), with the folder names in order.
    func walk(_ client: any TestClientProtocol, _ server: TestServer, _ path: String) async throws -> [String] {
        var names: [String] = []
        var cursor: String?
        for _ in 0..<50 {
            let separator = path.contains("?") ? "&" : "?"
            let uri = path + (cursor.map { "\(separator)cursor=\($0)" } ?? "")
            let response = try await client.send(.get, uri, key: server.memberKey)
            #expect(response.status == .ok, "\(uri): \(String(decoding: response.body, as: UTF8.self))")
            let page = try decode(APIFeedPage.self, response.body)
            names += page.items.map(\.folderName)
            guard let next = page.nextCursor else { break }
            cursor = next
        }
        #expect(Set(names).count == names.count, "\(path) served a post twice: \(names)")
        return names
    }

    @Test func browsePagesInTitleOrderToTheEnd() async throws {
        let (server, _) = try await server()
        try await server.application().test(.router) { client async throws in
            #expect(try await walk(client, server, "/api/v1/browse?limit=2") == ["a", "e", "m", "v2", "v10"])
            #expect(try await walk(client, server, "/api/v1/browse?order=desc&limit=1") == ["v10", "v2", "m", "e", "a"])
            #expect(try await walk(client, server, "/api/v1/browse?tags=CATS&exclude_tags=film&limit=1") == ["m", "v2"])
            #expect(try await walk(client, server, "/api/v1/browse?sort=newest&kind=video,image") == ["a", "e", "v2", "v10", "m"])
            #expect(try await walk(client, server, "/api/v1/browse?kind=carousel").isEmpty)
            #expect(try await walk(client, server, "/api/v1/browse?uploader=nobody,UP&min_duration=1&max_duration=2") .count == 5)
        }
    }

    @Test func browseFiltersByTheViewersOwnState() async throws {
        let (server, ids) = try await server()
        try await server.store.setFavorite(userID: server.member.id, postID: ids["v2"]!, favorited: true, now: Date())
        try await server.store.setRating(userID: server.member.id, postID: ids["e"]!, rating: 4, now: Date())
        try await server.store.markSeen(userID: server.member.id, postID: ids["m"]!, now: Date())
        try await server.store.setFavorite(userID: server.owner.id, postID: ids["a"]!, favorited: true, now: Date())
        try await server.application().test(.router) { client async throws in
            #expect(try await walk(client, server, "/api/v1/browse?favorites=true") == ["v2"])
            #expect(try await walk(client, server, "/api/v1/browse?min_rating=4") == ["e"])
            #expect(try await walk(client, server, "/api/v1/browse?seen=true") == ["m"])
            #expect(try await walk(client, server, "/api/v1/browse?seen=false") == ["a", "e", "v2", "v10"])
            #expect(try await walk(client, server, "/api/v1/browse?sort=rating&limit=2").first == "e")
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/browse?favorites=1", key: server.memberKey).body)
            #expect(page.items.first?.isFavorited == true)
        }
    }

    @Test func badParametersAre400sNamingTheParameter() async throws {
        let (server, _) = try await server()
        try await server.application().test(.router) { client async throws in
            let cases = ["sort=best": "sort", "order=up": "order", "kind=video,gif": "kind", "kind=video,": "kind",
                         "min_duration=-1": "min_duration", "max_duration=abc": "max_duration", "min_duration=nan": "min_duration",
                         "min_duration=9&max_duration=3": "min_duration", "min_rating=0": "min_rating", "min_rating=6": "min_rating",
                         "favorites=maybe": "favorites", "seen=yes": "seen", "limit=61": "limit", "limit=0": "limit",
                         "tags=" + (1...21).map { "t\($0)" }.joined(separator: ","): "tags", "cursor=nonsense": "cursor"]
            for (query, parameter) in cases {
                let response = try await client.send(.get, "/api/v1/browse?\(query)", key: server.memberKey)
                #expect(response.status == .badRequest, "\(query) → \(response.status)")
                let error = try decode(APIErrorEnvelope.self, response.body).error
                #expect(error.code == (parameter == "cursor" ? "invalid_cursor" : "bad_request"))
                #expect(error.message.contains(parameter), "\(query): \(error.message)")
            }
            // A cursor is only good for the query it came from.
            let first = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/browse?limit=1", key: server.memberKey).body)
            let cursor = try #require(first.nextCursor)
            let other = try await client.send(.get, "/api/v1/browse?limit=1&sort=newest&cursor=\(cursor)", key: server.memberKey)
            #expect(other.status == .badRequest)
            let shelf = try await client.send(.get, "/api/v1/shelves/new?cursor=\(cursor)", key: server.memberKey)
            #expect(shelf.status == .badRequest)
        }
    }

    @Test func discoverListsTheShelvesThatHoldSomethingInOrder() async throws {
        let (server, ids) = try await server { $0[VideoSettings.self].resumeMinDuration = 1 }
        let tags = try await server.store.popularTags(limit: 10)
        #expect(tags.map(\.name) == ["cats", "film"])
        let tagShelves = tags.map { "tag-\($0.id)" }
        try await server.application().test(.router) { client async throws in
            let fresh = try decode(WireDiscover.self, try await client.send(.get, "/api/v1/discover", key: server.memberKey).body)
            #expect(fresh.shelves.map(\.id) == ["new", "unseen"] + tagShelves)
            #expect(fresh.shelves.map(\.title) == ["New", "Unseen", "#cats", "#film"])
            #expect(fresh.shelves.map(\.kind) == ["new", "unseen", "tag", "tag"])
            #expect(fresh.shelves[2].items.map(\.folderName) == ["a", "v2", "m"])

            let position = try await client.send(.put, "/api/v1/videos/\(ids["m"]!)/position", key: server.memberKey, json: #"{"seconds":1}"#)
            #expect(position.status == .noContent)
            try await server.store.setRating(userID: server.member.id, postID: ids["v10"]!, rating: 5, now: Date())
            try await server.store.setFavorite(userID: server.owner.id, postID: ids["e"]!, favorited: true, now: Date())
            let after = try decode(WireDiscover.self, try await client.send(.get, "/api/v1/discover", key: server.memberKey).body)
            #expect(after.shelves.map(\.id) == ["continue", "new", "top_rated", "most_favorited", "unseen"] + tagShelves)
            #expect(after.shelves[0].items.map(\.folderName) == ["m"] && after.shelves[0].items[0].position == 1)
            #expect(after.shelves[2].items.map(\.folderName) == ["v10"])
            #expect(after.shelves[3].items.map(\.folderName) == ["e"])
        }
    }

    @Test func aShelfPagesToTheEndAndUnknownShelvesAre404() async throws {
        let (server, _) = try await server()
        let film = try #require(try await server.store.popularTags(limit: 10).first { $0.name == "film" })
        try await server.application().test(.router) { client async throws in
            var names: [String] = []
            var uri = "/api/v1/shelves/new?limit=2"
            while true {
                let response = try await client.send(.get, uri, key: server.memberKey)
                #expect(response.status == .ok)
                let shelf = try decode(WireShelf.self, response.body)
                #expect(shelf.id == "new" && shelf.title == "New" && shelf.kind == "new")
                names += shelf.items.map(\.folderName)
                guard let next = shelf.nextCursor else { break }
                uri = "/api/v1/shelves/new?limit=2&cursor=\(next)"
            }
            #expect(names == ["a", "e", "v2", "v10", "m"])
            let tag = try decode(WireShelf.self, try await client.send(.get, "/api/v1/shelves/tag-\(film.id)", key: server.memberKey).body)
            #expect(tag.title == "#film" && tag.items.map(\.folderName) == ["a"])
            for missing in ["nope", "tag-99", "collection-5", "tag-0"] {
                let response = try await client.send(.get, "/api/v1/shelves/\(missing)", key: server.memberKey)
                #expect(response.status == .notFound, "\(missing)")
            }
        }
    }

    @Test func aResumeRuleThatCannotHoldIsRefusedAtStartup() throws {
        let good = try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_RESUME_MIN_FRACTION": "0.2"], overrides: ["resumeMinDuration": "30"])
        #expect(good[VideoSettings.self].resumeRule == ResumeRule(minDuration: 30, minFraction: 0.2, maxFraction: 0.9))
        for bad in [["resumeMinFraction": "0.95"], ["resumeMaxFraction": "1.5"], ["resumeMinDuration": "-1"], ["resumeMinFraction": "-0.1"]] {
            #expect(throws: ConfigurationError.self, "\(bad)") { _ = try ConfigurationLoader.load(file: nil, environment: [:], overrides: bad) }
        }
    }

    @Test func meCarriesTheResumeRule() async throws {
        let server = try await TestServer { $0[VideoSettings.self].resumeMinDuration = 90 }
        try await server.application().test(.router) { client async throws in
            let me = try decode(APIMe.self, try await client.send(.get, "/api/v1/me", key: server.memberKey).body)
            #expect(me.name == "member" && me.resume == APIResumeRule(minDuration: 90, minFraction: 0.05, maxFraction: 0.9))
        }
    }
}
