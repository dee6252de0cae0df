import Foundation
import Hummingbird
import HummingbirdTesting
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// `GET /api/v1/feed?mode=…` over HTTP (docs/recommendations-api.md, "Feed").
@Suite("For You API")
struct ForYouAPITests {
    /// `count` long views by the member, one per post in turn.
    private func watch(_ server: TestServer, posts: [Post], count: Int, from start: Int = 0) throws {
        try server.store.loadEvents((start..<(start + count)).map { index in
            PersonEvent(userID: server.member.id, event: WatchEvent(postID: posts[index % posts.count].id, type: .view,
                at: Date().addingTimeInterval(Double(index - 1_000)), watchedMs: 2_000, durationMs: 2_000))
        }, aggregation: ForYouRules())
    }

    @Test func theDefaultModeSwitchesToForYouAtTwentySignals() async throws {
        let server = try await TestServer()
        var published: [Post] = []
        for index in 0..<6 { published.append(try await server.publishVideo(name: "d\(index)", tags: ["t\(index % 2)"])) }
        let posts = published
        try watch(server, posts: posts, count: UserProfile.signalsForForYou - 1)
        let clock = MediaTestClock(Date())
        var dependencies = server.dependencies
        dependencies.now = { clock.now }
        try await Application(router: buildRouter(configuration: server.configuration, dependencies: dependencies).0).test(.router) { client in
            let before = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(before.mode == .shuffle)
            #expect(before.items.allSatisfy { $0.reason == nil && $0.reasonKind == nil })
            // The twentieth is written behind the node's back (as through another node): its
            // "not yet" is kept a few seconds, then counted afresh.
            try watch(server, posts: posts, count: 1, from: 100)
            let kept = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(kept.mode == .shuffle)
            clock.advance(ForYouReadiness.notYetLifetime + 0.5)
            let after = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(after.mode == .forYou)
            #expect(!after.items.isEmpty && after.items.allSatisfy { $0.reason != nil && $0.reasonKind != nil })
            // The owner has no signals: still the shuffle.
            let owner = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.ownerKey).body)
            #expect(owner.mode == .shuffle)
        }
    }

    @Test func clearingHistoryOnTheNodeMakesTheShuffleTheDefaultAtOnce() async throws {
        let server = try await TestServer()
        var published: [Post] = []
        for index in 0..<4 { published.append(try await server.publishVideo(name: "c\(index)")) }
        try watch(server, posts: published, count: UserProfile.signalsForForYou)
        try await server.application().test(.router) { client in
            let before = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(before.mode == .forYou)
            #expect(try await client.send(.delete, "/api/v1/me/history", key: server.memberKey).status == .noContent)
            let after = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(after.mode == .shuffle)
        }
    }

    @Test func aTagOnEveryPostIsNeverGivenAsTheReason() async throws {
        let server = try await TestServer()
        var published: [Post] = []
        for index in 0..<6 { published.append(try await server.publishVideo(name: "e\(index)", tags: ["everywhere", "t\(index % 3)"])) }
        try watch(server, posts: Array(published.prefix(4)), count: UserProfile.signalsForForYou)
        try await server.application().test(.router) { client in
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?mode=for_you&limit=6", key: server.memberKey).body)
            #expect(page.items.count == 6)
            let reasons = page.items.compactMap(\.reason)
            #expect(!reasons.contains("because you like #everywhere"), "\(reasons)")
            // (The posts are new, so "new" outweighs the weaker telling tags here.)
            #expect(reasons.count == 6)
        }
    }

    @Test func eachModeSaysWhichItIsAndOnlyForYouGivesReasons() async throws {
        let server = try await TestServer()
        for index in 0..<5 { try await server.publishVideo(name: "m\(index)", tags: ["cats"]) }
        try await server.application().test(.router) { client in
            for mode in FeedMode.allCases {
                let response = try await client.send(.get, "/api/v1/feed?mode=\(mode.rawValue)&limit=5", key: server.memberKey)
                #expect(response.status == .ok)
                let page = try decode(APIFeedPage.self, response.body)
                #expect(page.mode == mode)
                #expect(page.items.count == 5)
                let raw = String(decoding: response.body, as: UTF8.self)
                if mode == .forYou {
                    #expect(page.items.allSatisfy { item in
                        guard let kind = item.reasonKind, let reason = item.reason else { return false }
                        return [ReasonKind.popular, .new, .explore].contains(kind) && reason == kind.rawValue
                    })
                } else {
                    #expect(!raw.contains("\"reason\"") && !raw.contains("\"reason_kind\""))
                }
            }
        }
    }

    @Test func latestIsNewestFirstAndEnds() async throws {
        let server = try await TestServer()
        var published: [Int64] = []
        for index in 0..<5 { published.append(try await server.publishVideo(name: "l\(index)").id) }
        let ids = published
        try await server.application().test(.router) { client in
            let first = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?mode=latest&limit=3", key: server.memberKey).body)
            let cursor = try #require(first.nextCursor)
            // Without `mode`, the cursor says which feed it continues.
            let second = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=3&cursor=\(cursor)", key: server.memberKey).body)
            #expect(second.mode == .latest)
            #expect(second.nextCursor == nil, "latest ends")
            let served = (first.items + second.items).map(\.id)
            #expect(Set(served) == Set(ids) && served.count == ids.count)
        }
    }

    @Test func aBadModeAndAnotherModesCursorAre400() async throws {
        let server = try await TestServer()
        for index in 0..<4 { try await server.publishVideo(name: "b\(index)") }
        try await server.application().test(.router) { client in
            let bad = try await client.send(.get, "/api/v1/feed?mode=trending", key: server.memberKey)
            #expect(bad.status == .badRequest)
            #expect(try decode(APIErrorBody.self, bad.body).error.code == "bad_request")
            for (mode, other) in [(FeedMode.latest, FeedMode.forYou), (.forYou, .shuffle), (.shuffle, .latest)] {
                let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?mode=\(mode.rawValue)&limit=1", key: server.memberKey).body)
                let cursor = try #require(page.nextCursor)
                let same = try await client.send(.get, "/api/v1/feed?mode=\(mode.rawValue)&limit=1&cursor=\(cursor)", key: server.memberKey)
                #expect(same.status == .ok)
                let crossed = try await client.send(.get, "/api/v1/feed?mode=\(other.rawValue)&limit=1&cursor=\(cursor)", key: server.memberKey)
                #expect(crossed.status == .badRequest)
                #expect(try decode(APIErrorBody.self, crossed.body).error.code == "invalid_cursor")
                // And another filter's cursor.
                let filtered = try await client.send(.get, "/api/v1/feed?mode=\(mode.rawValue)&limit=1&tags=x&cursor=\(cursor)", key: server.memberKey)
                #expect(filtered.status == .badRequest)
            }
        }
    }

    @Test func forYouReasonsNameTheLikedPost() async throws {
        let server = try await TestServer()
        var posts: [Post] = []
        for index in 0..<8 { posts.append(try await server.publishVideo(name: "r\(index)")) }
        let liked = posts[0]
        let neighbor = posts[1]
        try server.store.loadNeighbors([liked.id: [Neighbor(postID: neighbor.id, score: 0.8)]])
        try server.store.loadEvents([PersonEvent(userID: server.member.id, event: WatchEvent(postID: liked.id, type: .favorite, at: Date()))], aggregation: ForYouRules())
        try await server.application().test(.router) { client in
            let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?mode=for_you&limit=4", key: server.memberKey).body)
            let first = try #require(page.items.first)
            #expect(first.id == neighbor.id)
            #expect(first.reasonKind == .liked)
            let title = ReasonText.title(description: liked.metadata.description, shortcode: liked.metadata.shortcode, folderName: liked.folderName)
            #expect(first.reason == "because you liked “\(title)”")
            #expect(!page.items.contains { $0.id == liked.id })
            // The item is otherwise exactly the post as presented alone.
            var alone = try decode(APIVideo.self, try await client.send(.get, "/api/v1/videos/\(first.id)", key: server.memberKey).body)
            alone.reason = first.reason
            alone.reasonKind = first.reasonKind
            #expect(first == alone)
        }
    }

    @Test func eventsSentOverHTTPSwitchTheDefaultAndALikeLeadsTheNextPage() async throws {
        let server = try await TestServer()
        var published: [Post] = []
        for index in 0..<8 { published.append(try await server.publishVideo(name: "h\(index)")) }
        let posts = published
        try server.store.loadNeighbors([posts[0].id: [Neighbor(postID: posts[5].id, score: 0.9)]])
        try await server.application().test(.router) { client in
            func record(_ events: [WatchEvent]) async throws {
                let body = String(decoding: try JSONEncoder().encode(APIEventBatch(events: events)), as: UTF8.self)
                #expect(try await client.send(.post, "/api/v1/events", key: server.memberKey, json: body).status == .ok)
            }
            // Nineteen skips: signals, but not yet enough for For You.
            try await record((0..<19).map { WatchEvent(postID: posts[1 + $0 % 4].id, type: .skip, at: Date(), watchedMs: 500) })
            let before = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed", key: server.memberKey).body)
            #expect(before.mode == .shuffle)
            // The twentieth: a like, sent as an event and through its own route (as clients do).
            try await record([WatchEvent(postID: posts[0].id, type: .favorite, at: Date())])
            #expect(try await client.send(.post, "/api/v1/videos/\(posts[0].id)/favorite", key: server.memberKey).status == .ok)
            let after = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=3", key: server.memberKey).body)
            #expect(after.mode == .forYou)
            let first = try #require(after.items.first)
            #expect(first.id == posts[5].id && first.reasonKind == .liked)
            let served = Set(after.items.map(\.id))
            #expect(served.isDisjoint(with: posts[0...4].map(\.id)), "liked and skipped posts are seen")
        }
    }
}
