import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// `GET /api/v1/search`: feed-shaped pages of what a person meant, and a 200 or a documented
/// 400 for any input at all.
@Suite("Search API")
struct SearchAPITests {
    /// A server whose posts say what the search cases need.
    func server() async throws -> TestServer {
        let server = try await TestServer()
        let posts: [(String, String, [String], String?)] = [
            ("leon", "Léon: the professional", [], "Cinema Club"),
            ("spider", "Spider-Man swings", ["marvel"], nil),
            ("robot", "Mr. Robot season one", [], nil),
            ("creme", "Crème brûlée at home", ["dessert"], "Chef Zoë"),
            ("cats", "a nap in the sun", ["cats"], nil),
            ("mentions", "my neighbour's cats and their long afternoon naps in the garden", [], nil),
        ]
        for (name, description, tags, uploader) in posts {
            let post = try await server.publishVideo(name: name, tags: tags)
            var metadata = post.metadata
            metadata.description = description
            metadata.uploader = uploader
            try await server.store.updateMetadata(postID: post.id, metadata: metadata)
        }
        return server
    }

    func names(_ client: any TestClientProtocol, _ server: TestServer, _ q: String) async throws -> [String] {
        let response = try await client.send(.get, "/api/v1/search?q=\(Self.escape(q))&limit=50", key: server.memberKey)
        #expect(response.status == .ok, "\(q) → \(response.status)")
        return try decode(APISearchPage.self, response.body).items.map(\.folderName)
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    @Test func findsWhatAPersonMeans() async throws {
        let server = try await server()
        try await server.application().test(.router) { client async throws in
            #expect(try await names(client, server, "leon") == ["leon"])
            #expect(try await names(client, server, "spider man") == ["spider"])
            #expect(try await names(client, server, "spiderman") == ["spider"])
            #expect(try await names(client, server, "ession") == ["leon"], "a substring of a long word")
            #expect(try await names(client, server, "mr robot") == ["robot"])
            #expect(try await names(client, server, "creme brulee") == ["creme"])
            #expect(try await names(client, server, "brul") == ["creme"])
            #expect(try await names(client, server, "marvel") == ["spider"])
            #expect(try await names(client, server, "swings") == ["spider"])
            #expect(try await names(client, server, "cats") == ["cats", "mentions"], "the tag match ranks first")
            #expect(try await names(client, server, "tag:cats") == ["cats"])
            #expect(try await names(client, server, "naps -tag:cats") == ["mentions"])
            #expect(try await names(client, server, "@zoe") == ["creme"])
        }
    }

    @Test func itemsAreFeedItemsWithTheViewersState() async throws {
        let server = try await server()
        let cats = try #require(try await server.store.post(folderName: "cats"))
        try await server.store.setFavorite(userID: server.member.id, postID: cats.id, favorited: true, now: Date())
        try await server.application().test(.router) { client async throws in
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/search?q=tag:cats", key: server.memberKey).body)
            let item = try #require(page.items.first)
            #expect(item.isFavorited == true)
            #expect(item.tags.map(\.name) == ["cats"])
            #expect(item.media.master?.hasPrefix("/media/") == true)
            #expect(try await client.send(.get, item.media.master!).status == .ok, "the signed URL works as is")
            #expect(try await client.send(.get, "/api/v1/search?q=cats").status == .unauthorized)
        }
    }

    @Test func pagesWithSignedCursorsBoundToTheirQuery() async throws {
        let server = try await TestServer()
        for index in 0..<7 { try await server.publishVideo(name: "holiday-\(index)") }
        try await server.application().test(.router) { client async throws in
            var seen: [String] = []
            var cursor: String?
            repeat {
                let uri = "/api/v1/search?q=holiday&limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try decode(APIFeedPage.self, try await client.send(.get, uri, key: server.memberKey).body)
                seen += page.items.map(\.folderName)
                cursor = page.nextCursor
            } while cursor != nil && seen.count < 20
            #expect(seen.count == 7 && Set(seen).count == 7)

            let first = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/search?q=holiday&limit=3", key: server.memberKey).body)
            let next = try #require(first.nextCursor)
            var tampered = Array(next)
            tampered[0] = tampered[0] == "A" ? "B" : "A"
            let feedCursor = try #require(
                try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=1", key: server.memberKey).body).nextCursor
            )
            for uri in [
                "/api/v1/search?q=about&cursor=\(next)", "/api/v1/search?q=holiday&cursor=\(String(tampered))",
                "/api/v1/search?q=holiday&cursor=garbage", "/api/v1/search?q=holiday&cursor=\(feedCursor)",
            ] {
                let response = try await client.send(.get, uri, key: server.memberKey)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try decode(APIErrorEnvelope.self, response.body).error.code == "invalid_cursor", "\(uri)")
            }
            for uri in ["/api/v1/search?q=x&limit=0", "/api/v1/search?q=x&limit=61", "/api/v1/search?q=x&limit=abc"] {
                let response = try await client.send(.get, uri, key: server.memberKey)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try decode(APIErrorEnvelope.self, response.body).error.code == "bad_request", "\(uri)")
            }
        }
    }

    @Test func anyQueryTextIsA200() async throws {
        let server = try await server()
        try await server.application().test(.router) { client async throws in
            for q in [
                "", " ", "!!!", "\"", "*", "NEAR(", "NEAR(a b, 2)", "a OR b", "AND", "-", ":", "-tag:", "tag:", "@", "people:zoe",
                "leon OR cats", "leon AND", "NOT leon", "^leon", "leon*", "\"leon", "\"\"", "description:leon", "OR", "NOT", "^", "?!.,;",
                "{description}: x", "'); DROP TABLE posts; --", "\u{0}", "é\u{301}", String(repeating: "x", count: 2000),
                String(repeating: "\" * ( NEAR OR - : ", count: 100),
            ] {
                _ = try await names(client, server, q)
            }
            let missing = try await client.send(.get, "/api/v1/search", key: server.memberKey)
            #expect(missing.status == .ok)
            #expect(try decode(APIFeedPage.self, missing.body).items.isEmpty)
        }
    }

    @Test func pagesCarryTheFoldedTermsForHighlighting() async throws {
        let server = try await server()
        try await server.application().test(.router) { client async throws in
            let response = try await client.send(.get, "/api/v1/search?q=\(Self.escape("Crème BRÛLÉE tag:dessert"))", key: server.memberKey)
            let page = try decode(APISearchPage.self, response.body)
            #expect(page.items.map(\.folderName) == ["creme"])
            #expect(page.terms == ["creme", "brulee"])
            let empty = try decode(APISearchPage.self, try await client.send(.get, "/api/v1/search?q=%21%21", key: server.memberKey).body)
            #expect(empty.terms.isEmpty && empty.items.isEmpty)
        }
    }

    @Test func recentSearchesAreKeptPerUser() async throws {
        let server = try await server()
        try await server.application().test(.router) { client async throws in
            func recent(_ key: String) async throws -> [String] {
                let response = try await client.send(.get, "/api/v1/me/searches", key: key)
                #expect(response.status == .ok)
                return try decode(APIRecentSearches.self, response.body).searches.map(\.query)
            }
            #expect(try await recent(server.memberKey).isEmpty)
            for query in ["leon", "cats", "Leon"] {
                let response = try await client.send(.post, "/api/v1/me/searches", key: server.memberKey, json: #"{"query":"\#(query)"}"#)
                #expect(response.status == .noContent)
            }
            #expect(try await recent(server.memberKey) == ["Leon", "cats"], "a repeat moves to the top")
            #expect(try await recent(server.ownerKey).isEmpty, "another user's list is their own")
            for index in 0..<25 {
                _ = try await client.send(.post, "/api/v1/me/searches", key: server.memberKey, json: #"{"query":"q\#(index)"}"#)
            }
            #expect(try await recent(server.memberKey).count == 20)
            for body in [#"{"query":"   "}"#, #"{"query":""}"#, #"{}"#, #"{"query":7}"#, "not json",
                         #"{"query":"\#(String(repeating: "x", count: 2001))"}"#] {
                let response = try await client.send(.post, "/api/v1/me/searches", key: server.memberKey, json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(try decode(APIErrorEnvelope.self, response.body).error.code == "bad_request", "\(body)")
            }
            #expect(try await client.send(.delete, "/api/v1/me/searches", key: server.memberKey).status == .noContent)
            #expect(try await recent(server.memberKey).isEmpty)
            #expect(try await client.send(.get, "/api/v1/me/searches").status == .unauthorized)
        }
    }
}
