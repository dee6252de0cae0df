import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Profile's lists over HTTP: history, not interested, hidden uploaders")
struct EventListRoutesTests {
    @Test("history pages newest first with the video, forgets one post and everything")
    func history() async throws {
        let server = try await TestServer()
        let first = try await server.publishVideo(name: "first", tags: ["cats"])
        let second = try await server.publishVideo(name: "second")
        let start = Date().addingTimeInterval(-60)
        let events = [
            WatchEvent(postID: first.id, type: .view, at: start, watchedMs: 12_000, durationMs: 12_000, loops: 0),
            WatchEvent(postID: second.id, type: .skip, at: start + 10, watchedMs: 800),
            WatchEvent(postID: first.id, type: .impression, at: start + 20),
        ]
        try await server.application().test(.live) { client in
            #expect(try await client.send(.post, "/api/v1/events", key: server.memberKey, json: eventsJSON(events)).status == .ok)
            let page = try await client.send(.get, "/api/v1/me/history?limit=1", key: server.memberKey)
            #expect(page.status == .ok)
            try server.expectMatchesSchema(page.body, "HistoryPage")
            let top = try decode(APIHistoryPage.self, page.body)
            #expect(top.items.map(\.postID) == [second.id] && top.items[0].skips == 1 && top.items[0].video?.id == second.id)
            #expect(top.items[0].watchedAt == WatchEvent.timestamp(start + 10))
            let cursor = try #require(top.nextCursor)
            let rest = try decode(APIHistoryPage.self, try await client.send(.get, "/api/v1/me/history?limit=1&cursor=\(cursor)", key: server.memberKey).body)
            #expect(rest.items.map(\.postID) == [first.id] && rest.items[0].longViews == 1 && rest.nextCursor == nil)
            #expect(rest.items[0].video?.tags.map(\.name) == ["cats"])
            // A cursor is the person's own and its list's own.
            let stolen = try await client.send(.get, "/api/v1/me/history?limit=1&cursor=\(cursor)", key: server.ownerKey)
            #expect(try stolen.status == .badRequest && errorOf(stolen.body).code == "invalid_cursor")
            let otherList = try await client.send(.get, "/api/v1/me/not-interested?cursor=\(cursor)", key: server.memberKey)
            #expect(otherList.status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/me/history?limit=101", key: server.memberKey).status == .badRequest)

            #expect(try await client.send(.delete, "/api/v1/me/history/\(second.id)", key: server.memberKey).status == .noContent)
            let missing = try await client.send(.delete, "/api/v1/me/history/\(second.id)", key: server.memberKey)
            #expect(try missing.status == .notFound && errorOf(missing.body).code == "not_found")
            let after = try decode(APIHistoryPage.self, try await client.send(.get, "/api/v1/me/history", key: server.memberKey).body)
            #expect(after.items.map(\.postID) == [first.id])
            #expect(try await client.send(.delete, "/api/v1/me/history", key: server.memberKey).status == .noContent)
            let cleared = try decode(APIHistoryPage.self, try await client.send(.get, "/api/v1/me/history", key: server.memberKey).body)
            #expect(cleared.items.isEmpty && cleared.nextCursor == nil)
        }
    }

    @Test("not interested and hidden uploaders are listed and undone; absent entries are 404")
    func hiddenLists() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip")   // uploader "Up"
        try await server.store.updateMetadata(postID: post.id, metadata: PostMetadata(description: "x", uploader: "Ana Example", username: "ana"))
        let now = Date()
        try await server.application().test(.live) { client in
            let events = [WatchEvent(postID: post.id, type: .notInterested, at: now), WatchEvent(postID: post.id, type: .hideUploader, at: now)]
            #expect(try await client.send(.post, "/api/v1/events", key: server.memberKey, json: eventsJSON(events)).status == .ok)

            let list = try await client.send(.get, "/api/v1/me/not-interested", key: server.memberKey)
            try server.expectMatchesSchema(list.body, "NotInterestedPage")
            let page = try decode(APINotInterestedPage.self, list.body)
            #expect(page.items.map(\.postID) == [post.id] && page.items[0].video?.id == post.id && page.nextCursor == nil)
            let uploaders = try await client.send(.get, "/api/v1/me/hidden-uploaders", key: server.memberKey)
            try server.expectMatchesSchema(uploaders.body, "HiddenUploaders")
            #expect(try decode(APIHiddenUploaders.self, uploaders.body).uploaders.map(\.uploader) == ["Ana Example"])
            // Another person's lists are their own.
            let others = try decode(APIHiddenUploaders.self, try await client.send(.get, "/api/v1/me/hidden-uploaders", key: server.ownerKey).body)
            #expect(others.uploaders.isEmpty)

            #expect(try await client.send(.delete, "/api/v1/me/not-interested/\(post.id)", key: server.memberKey).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/me/not-interested/\(post.id)", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/me/hidden-uploaders/Ana%20Example", key: server.memberKey).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/me/hidden-uploaders/Ana%20Example", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/me/not-interested/zero", key: server.memberKey).status == .badRequest)
            let emptied = try decode(APINotInterestedPage.self, try await client.send(.get, "/api/v1/me/not-interested", key: server.memberKey).body)
            #expect(emptied.items.isEmpty)
        }
    }
}
