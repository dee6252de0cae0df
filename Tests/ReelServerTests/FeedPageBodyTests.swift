import Foundation
import Hummingbird
import HummingbirdTesting
import ReelForYou
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// The feed writes its pages from cached encoded items (`FeedPageBody`, `EncodedItemCache`);
/// every item must still be exactly what presenting the post the ordinary way gives.
@Suite("Feed page body")
struct FeedPageBodyTests {
    @Test func feedItemsEqualThePostPresentedAloneForEachViewer() async throws {
        let server = try await TestServer()
        var published: [Post] = []
        for index in 0..<4 { published.append(try await server.publishVideo(name: "clip-\(index)", tags: ["t\(index)", "shared"])) }
        let posts = published
        try await server.store.setFavorite(userID: server.member.id, postID: posts[0].id, favorited: true, now: Date())
        try await server.store.setRating(userID: server.member.id, postID: posts[1].id, rating: 4, now: Date())
        try await server.store.setPosition(userID: server.member.id, postID: posts[2].id, seconds: 7.25, now: Date())
        try await server.store.addFlag(postID: posts[3].id, flag: "loud")
        try await server.application().test(.router) { client in
            for key in [server.memberKey, server.ownerKey, server.memberKey] {
                let response = try await client.send(.get, "/api/v1/feed?limit=10", key: key)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let page = try decode(APIFeedPage.self, response.body)
                #expect(page.items.count == 4)
                for item in page.items {
                    let alone = try decode(APIVideo.self, try await client.send(.get, "/api/v1/videos/\(item.id)", key: key).body)
                    #expect(item == alone)
                }
            }
            let member = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=10", key: server.memberKey).body)
            let byID = Dictionary(uniqueKeysWithValues: member.items.map { ($0.id, $0) })
            #expect(byID[posts[0].id]?.isFavorited == true)
            #expect(byID[posts[1].id]?.rating == 4)
            #expect(byID[posts[2].id]?.position == 7.25)
            #expect(byID[posts[3].id]?.flags.map(\.name) == ["loud"])
            let owner = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=10", key: server.ownerKey).body)
            #expect(owner.items.allSatisfy { !$0.isFavorited && $0.rating == 0 && $0.position == nil })
        }
    }

    @Test func anEditedPostIsNeverServedFromItsOldEncoding() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "before", tags: ["old"])
        try await server.application().test(.router) { client in
            let first = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(first.items.first?.tags.map(\.name) == ["old"])
            var metadata = post.metadata
            metadata.description = "edited"
            try await server.store.updateMetadata(postID: post.id, metadata: metadata)
            try await server.store.addTags(postID: post.id, tags: ["new"])
            let second = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(second.items.first?.tags.map(\.name) == ["old", "new"])
            #expect(second.items.first?.description == "edited")
        }
    }

    @Test func aNewTokenWindowGivesNewURLs() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "windowed")
        let secret = Data("a secret long enough for the test".utf8)
        let presenter = VideoPresenter(
            tokens: MediaTokenSigner(secret: secret, windowSeconds: 60, marginSeconds: 0),
            images: ImageURLSigner(secret: secret)
        )
        let body = FeedPageBody(presenter: presenter, cache: EncodedItemCache())
        let item = FeedItem(post: post, viewer: .none, tagRefs: [], flagRefs: [])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let decoder = JSONDecoder()
        let early = try decoder.decode(APIFeedPage.self, from: Data(try body.encode([item], nextCursor: "a.b", now: start).readableBytesView))
        let same = try decoder.decode(APIFeedPage.self, from: Data(try body.encode([item], nextCursor: nil, now: start + 1).readableBytesView))
        let later = try decoder.decode(APIFeedPage.self, from: Data(try body.encode([item], nextCursor: nil, now: start + 61).readableBytesView))
        #expect(early.nextCursor == "a.b" && same.nextCursor == nil)
        #expect(early.items == same.items)
        #expect(early.items[0] == presenter.present(item, now: start))
        #expect(later.items[0].media.master != early.items[0].media.master)
        #expect(later.items[0] == presenter.present(item, now: start + 61))
    }

    @Test func forYouReasonsAndTheModeDecodeAsAPIFeedPageEncodesThem() async throws {
        let server = try await TestServer()
        let posts = [try await server.publishVideo(name: "reasoned"), try await server.publishVideo(name: "plain")]
        let secret = Data("a secret long enough for the test".utf8)
        let presenter = VideoPresenter(tokens: MediaTokenSigner(secret: secret, windowSeconds: 600, marginSeconds: 0), images: ImageURLSigner(secret: secret))
        let items = posts.map { FeedItem(post: $0, viewer: .none, tagRefs: [], flagRefs: []) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // A title with quotes, a backslash and a line break must come out as the same string.
        let reason = FeedPageBody.Reason(text: "because you liked “say \"hi\" \\ \n”", kind: .liked)
        let bytes = try FeedPageBody(presenter: presenter, cache: EncodedItemCache())
            .encode(items, nextCursor: "a.b", reasons: [posts[0].id: reason], mode: .forYou, now: now)
        var expected = APIFeedPage(items: items.map { presenter.present($0, now: now) }, nextCursor: "a.b", mode: .forYou)
        expected.items[0].reason = reason.text
        expected.items[0].reasonKind = .liked
        let written = try JSONDecoder().decode(APIFeedPage.self, from: Data(bytes.readableBytesView))
        #expect(written == expected)
        let encoded = try JSONDecoder().decode(APIFeedPage.self, from: JSONEncoder().encode(expected))
        #expect(written == encoded)
    }

    @Test func viewerMembersAreValidJSONForAnyPosition() throws {
        for position in [nil, 0, 12.5, 1e-5, 3600.0, 1e16, Double.nan] as [Double?] {
            let text = "{\"x\":1" + APIVideo.viewerMembers(isFavorited: true, rating: 3, position: position) + "}"
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["is_favorited"] as? Bool == true)
            #expect(object["rating"] as? Int == 3)
            if let position, position.isFinite {
                #expect((object["position"] as? NSNumber)?.doubleValue == position)
            } else {
                #expect(object["position"] == nil)
            }
        }
    }
}

@Suite("Feed cursor")
struct FeedCursorTests {
    @Test("the position written by hand reads back through Codable, and the cursor round-trips", arguments: [
        FeedPosition(seed: 1, epoch: 0, phase: 0, lastKey: nil, lastID: nil),
        FeedPosition(seed: UInt64.max, epoch: 12, phase: 1, lastKey: Int64.min, lastID: 9_007_199_254_740_993),
        FeedPosition(seed: 42, epoch: 3, phase: 0, lastKey: -5, lastID: 7),
    ])
    func roundTrip(position: FeedPosition) throws {
        #expect(try JSONDecoder().decode(FeedPosition.self, from: Data(FeedCursorCodec.json(position).utf8)) == position)
        let codec = FeedCursorCodec(secret: Data("cursor secret for the test".utf8))
        let filter = FeedFilter(tags: ["cats"])
        let cursor = codec.encode(position, filter: filter)
        #expect(try codec.decode(cursor, filter: filter) == position)
        #expect(throws: APIError.self) { try codec.decode(cursor, filter: FeedFilter()) }
    }

    @Test func everyModesCursorRoundTripsAndKeepsItsMode() throws {
        let codec = FeedCursorCodec(secret: Data("cursor secret for the test".utf8))
        let filter = FeedFilter(tags: ["cats"])
        for state in [
            FeedCursorState.shuffle(FeedPosition(seed: 9, epoch: 1, phase: 0, lastKey: 5, lastID: 6)),
            .latest(LatestPosition(addedAt: 1_700_000_123.456, id: 42)),
            .forYou(ForYouPosition(seed: UInt64.max, page: 3, lastPostID: 77)),
            .forYou(ForYouPosition(seed: 1, page: 0, lastPostID: nil)),
        ] {
            let cursor = codec.encode(state, filter: filter)
            #expect(try codec.decodeState(cursor, filter: filter) == state)
            #expect(throws: APIError.self) { try codec.decodeState(cursor, filter: FeedFilter()) }
        }
    }
}
