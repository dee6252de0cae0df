import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Feed API")
struct FeedAPITests {
    @Test func pagesThroughTheWholeLibraryWithoutRepeatsThenReshuffles() async throws {
        let server = try await TestServer()
        for index in 0..<23 { try await server.publishVideo(name: "clip-\(index)", tags: index % 3 == 0 ? ["cats"] : ["dogs"]) }
        try await server.application().test(.router) { client in
            var seen: [Int64] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/api/v1/feed?limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
                let response = try await client.send(.get, uri, key: server.memberKey)
                #expect(response.status == .ok)
                let page = try decode(APIFeedPage.self, response.body)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while seen.count < 23 && pages < 20
            #expect(seen.count == 23)
            #expect(Set(seen).count == 23, "no repeats before the library is exhausted")
            // Past the end: the feed goes on, reshuffled.
            let more = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=5&cursor=\(cursor!)", key: server.memberKey).body)
            #expect(!more.items.isEmpty)
        }
    }

    @Test func itemsCarryEverythingAPlayerNeeds() async throws {
        let server = try await TestServer()
        try await server.publishVideo(name: "one", tags: ["cats"])
        try await server.application().test(.router) { client in
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            let item = try #require(page.items.first)
            #expect(item.folderName == "one")
            #expect(item.tags.map(\.name) == ["cats"])
            #expect(item.media.master?.hasPrefix("/media/") == true)
            #expect(item.media.master?.hasSuffix("/\(item.id)/master.m3u8") == true)
            #expect(item.media.prefetch?.firstSegment.hasSuffix("240p/seg_00000.m4s") == true)
            #expect(item.media.prefetch?.key?.hasSuffix("/key") == true)
            #expect(item.media.poster?.url.hasPrefix("/img/") == true)
            // The signed URL works as is, with no header.
            let master = try await client.send(.get, item.media.master!)
            #expect(master.status == .ok)
        }
    }

    @Test func filtersNarrowTheFeed() async throws {
        let server = try await TestServer()
        for index in 0..<9 { try await server.publishVideo(name: "v\(index)", tags: index < 3 ? ["cats"] : ["dogs"]) }
        try await server.application().test(.router) { client in
            let cats = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?tags=cats&limit=50", key: server.memberKey).body)
            #expect(cats.items.count == 3)
            #expect(cats.items.allSatisfy { $0.tags.map(\.name) == ["cats"] })
            let notCats = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?exclude_tags=cats&limit=50", key: server.memberKey).body)
            #expect(notCats.items.count == 6)
            let id = cats.items[0].id
            let r1 = try await client.send(.post, "/api/v1/videos/\(id)/favorite", key: server.memberKey)
            #expect(r1.status == .ok)
            let favorites = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?favorites=true", key: server.memberKey).body)
            #expect(favorites.items.map(\.id) == [id])
            // Another user's favorites are their own.
            let ownerFavorites = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?favorites=true", key: server.ownerKey).body)
            #expect(ownerFavorites.items.isEmpty)
        }
    }

    @Test func tamperedCursorsAndBadParametersAre400() async throws {
        let server = try await TestServer()
        for index in 0..<6 { try await server.publishVideo(name: "t\(index)") }
        try await server.application().test(.router) { client in
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=2", key: server.memberKey).body)
            let cursor = try #require(page.nextCursor)
            var tampered = Array(cursor)
            tampered[3] = tampered[3] == "A" ? "B" : "A"
            for uri in [
                "/api/v1/feed?cursor=\(String(tampered))", "/api/v1/feed?cursor=garbage", "/api/v1/feed?cursor=\(cursor)&tags=cats",
                "/api/v1/feed?limit=0", "/api/v1/feed?limit=1000", "/api/v1/feed?limit=abc", "/api/v1/feed?kind=movie",
                "/api/v1/feed?min_rating=9", "/api/v1/feed?favorites=maybe",
            ] {
                let response = try await client.send(.get, uri, key: server.memberKey)
                #expect(response.status == .badRequest, "\(uri) → \(response.status)")
                // A refused cursor has its own code: the client starts the feed again.
                let code = uri.contains("cursor=") ? "invalid_cursor" : "bad_request"
                #expect(try decode(APIErrorEnvelope.self, response.body).error.code == code, "\(uri)")
            }
        }
    }
}
